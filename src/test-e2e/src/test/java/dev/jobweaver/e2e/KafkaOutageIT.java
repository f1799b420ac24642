package dev.jobweaver.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.e2e.support.E2ePlatform;
import dev.jobweaver.e2e.support.Executions;
import dev.jobweaver.e2e.support.JobWeaverClient;
import dev.jobweaver.e2e.support.JobWeaverClient.Answer;
import dev.jobweaver.e2e.support.Jobs;
import dev.jobweaver.local.KafkaBroker;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Scenario 7: the Kafka broker stops for 10 s while jobs flow. No job answered 202 is lost; submissions during the
 * outage get 503 (with Retry-After) and are never run.
 */
class KafkaOutageIT {

    @BeforeEach
    void platformIsHealthy() {
        E2ePlatform.awaitHealthy();
    }

    @Test
    void acceptedJobsSurviveABrokerOutageAndRejectedOnesNeverRun() throws Exception {
        JobWeaverClient api = E2ePlatform.api();
        KafkaBroker kafka = E2ePlatform.get().stack().kafka();
        ConcurrentLinkedQueue<UUID> accepted = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Answer> unavailable = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Answer> unexpected = new ConcurrentLinkedQueue<>();
        AtomicBoolean submitting = new AtomicBoolean(true);
        ExecutorService clients = Executors.newFixedThreadPool(4);
        for (int i = 0; i < 4; i++) {
            clients.submit(() -> {
                while (submitting.get()) {
                    Answer answer = api.submit(Jobs.noop());
                    switch (answer.status()) {
                        case 202 -> accepted.add(answer.jobId());
                        case 503 -> unavailable.add(answer);
                        default -> unexpected.add(answer);
                    }
                    E2ePlatform.awaitQuietly(20);
                }
            });
        }
        try {
            Thread.sleep(2_000);
            kafka.stop();
            Thread.sleep(10_000);
        } finally {
            kafka.start();
        }
        Thread.sleep(5_000);
        submitting.set(false);
        clients.shutdown();
        assertThat(clients.awaitTermination(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();

        assertThat(unexpected).as("answers other than 202/503").isEmpty();
        assertThat(unavailable).as("submissions during the outage").isNotEmpty();
        assertThat(unavailable).allSatisfy(a -> {
            assertThat(a.header("Retry-After")).isNotBlank();
            assertThat(a.body().path("errorCode").asText()).isEqualTo("API.SERVICE_UNAVAILABLE");
        });
        List<UUID> acceptedIds = List.copyOf(accepted);
        Map<UUID, JsonNode> jobs = api.awaitAll(acceptedIds, JobWeaverClient::terminal, Duration.ofMinutes(3));
        assertThat(jobs.values()).allSatisfy(j -> assertThat(j.path("status").asText()).isEqualTo("COMPLETED"));
        assertThat(jobs).hasSize(acceptedIds.size());

        List<UUID> rejectedIds = unavailable.stream().map(a -> UUID.fromString(a.body().path("jobId").asText()))
                .toList();
        Thread.sleep(3_000); // a rejected job that was going to run would have started by now
        assertThat(Executions.perJob(rejectedIds).values()).as("executions of jobs answered 503").containsOnly(0);
        System.out.printf("[measure] scenario 7: 10 s broker outage; %d jobs accepted (all COMPLETED), %d answered 503 "
                + "(none ran)%n", acceptedIds.size(), rejectedIds.size());
    }
}
