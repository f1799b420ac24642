package dev.jobweaver.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.e2e.support.E2ePlatform;
import dev.jobweaver.e2e.support.Executions;
import dev.jobweaver.e2e.support.HealthyPlatform;
import dev.jobweaver.e2e.support.JobWeaverClient;
import dev.jobweaver.e2e.support.Stores;
import dev.jobweaver.e2e.support.TopicReader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * Cancelling jobs on the packaged services: a waiting job never runs, a running one is interrupted in its sleep and
 * ends CANCELLED, a finished one is refused, and cancels racing dispatches never let a cancelled job report COMPLETED.
 */
@HealthyPlatform
class CancelIT {

    @Test
    void aWaitingJobCancelledBeforeItsTimeNeverRuns() {
        JobWeaverClient api = E2ePlatform.api();
        UUID id = api.submitAccepted(sleep(100, "\"delayMs\":3000"));

        JobWeaverClient.Answer answer = api.cancel(id);

        assertThat(answer.status()).isEqualTo(202);
        assertThat(answer.body().path("id").asText()).isEqualTo(id.toString());
        JsonNode job = api.awaitAll(List.of(id), JobWeaverClient::terminal, Duration.ofSeconds(30)).get(id);
        assertThat(job.path("status").asText()).isEqualTo("CANCELLED");
        assertThat(job.path("finishedAt").isTextual()).isTrue();
        E2ePlatform.awaitQuietly(4_000); // past its runAt and a dispatch round
        assertThat(api.job(id).path("status").asText()).isEqualTo("CANCELLED");
        assertThat(Executions.perJob(List.of(id))).containsEntry(id, 0);
    }

    @Test
    void aRunningJobIsInterruptedInItsSleepAndEndsCancelled() {
        JobWeaverClient api = E2ePlatform.api();
        UUID id = api.submitAccepted(sleep(30_000, "\"maxRetryCount\":2"));
        awaitStarted(id);

        long t0 = System.nanoTime();
        assertThat(api.cancel(id).status()).isEqualTo(202);
        JsonNode job = api.awaitAll(List.of(id), JobWeaverClient::terminal, Duration.ofSeconds(20)).get(id);
        assertThat(job.path("status").asText()).isEqualTo("CANCELLED");
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!Executions.inFlight(List.of(id)).isEmpty() && System.nanoTime() < deadline) {
            E2ePlatform.awaitQuietly(100);
        }
        long interruptedMs = (System.nanoTime() - t0) / 1_000_000;

        assertThat(Executions.inFlight(List.of(id))).as("the worker still runs the 30 s sleep").isEmpty();
        assertThat(Stores.attemptsOf(id)).singleElement().asString().startsWith("FAILURE").contains("WORKER.CANCELLED");
        System.out.printf("[measure] running job interrupted %d ms after its cancel was accepted%n", interruptedMs);
        E2ePlatform.awaitQuietly(3_000); // a retry would be due after the e2e platform's 2 s backoff
        assertThat(api.job(id).path("status").asText()).isEqualTo("CANCELLED");
        assertThat(Stores.attemptsOf(id)).hasSize(1);
    }

    @Test
    void aFinishedOrUnknownJobCannotBeCancelled() {
        JobWeaverClient api = E2ePlatform.api();
        UUID id = api.submitAccepted(sleep(10, "\"maxRetryCount\":0"));
        api.awaitAll(List.of(id), JobWeaverClient::terminal, Duration.ofSeconds(30));

        JobWeaverClient.Answer finished = api.cancel(id);
        assertThat(finished.status()).isEqualTo(409);
        assertThat(finished.body().path("errorCode").asText()).isEqualTo("API.JOB_NOT_CANCELLABLE");
        assertThat(finished.body().path("message").asText()).contains("COMPLETED");
        assertThat(api.job(id).path("status").asText()).isEqualTo("COMPLETED");

        assertThat(api.cancel(UUID.randomUUID()).status()).isEqualTo(404);
        JobWeaverClient.Answer bad = api.cancel("not-a-uuid");
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.body().path("errorCode").asText()).isEqualTo("API.INVALID_PARAMETER");
    }

    /**
     * Each job is cancelled the moment it is accepted, while dispatch rounds claim it: whether the cancel reached the
     * scheduler before the claim (never runs) or after (the worker interrupts it), the job ends CANCELLED, no attempt
     * succeeds, and job-status never carries COMPLETED for it.
     */
    @Test
    void cancelsRacingDispatchesNeverLetACancelledJobComplete() throws Exception {
        JobWeaverClient api = E2ePlatform.api();
        int jobs = 60;
        List<UUID> ids = new ArrayList<>();
        Map<UUID, Integer> answers = new ConcurrentHashMap<>();
        try (ExecutorService clients = Executors.newFixedThreadPool(6)) {
            List<Future<UUID>> submitted = new ArrayList<>();
            for (int i = 0; i < jobs; i++) {
                submitted.add(clients.submit(() -> {
                    UUID id = api.submitAccepted(sleep(20_000, "\"maxRetryCount\":0"));
                    answers.put(id, api.cancel(id).status());
                    return id;
                }));
            }
            for (Future<UUID> f : submitted) {
                ids.add(f.get());
            }
        }
        assertThat(answers.values()).as("cancel answers").containsOnly(202);

        Map<UUID, JsonNode> last = api.awaitAll(ids, JobWeaverClient::terminal, Duration.ofSeconds(60));
        assertThat(last.values()).extracting(j -> j.path("status").asText()).hasSize(jobs).containsOnly("CANCELLED");
        // The interrupt travels its own path (scheduler, worker-commands, worker): wait until no attempt runs, well
        // inside each job's 20 s sleep, so that an attempt the interrupt missed is still RUNNING below, not SUCCESS.
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (!Executions.inFlight(ids).isEmpty() && System.nanoTime() < deadline) {
            E2ePlatform.awaitQuietly(250);
        }
        Set<UUID> open = new HashSet<>(ids);
        List<ConsumerRecord<String, String>> statuses =
                TopicReader.read("job-status", key -> open.contains(UUID.fromString(key)), Duration.ofSeconds(2));
        assertThat(statuses).filteredOn(r -> r.value() != null && r.value().contains("\"COMPLETED\"")).isEmpty();
        long started = 0;
        for (UUID id : ids) {
            assertThat(api.job(id).path("status").asText()).isEqualTo("CANCELLED");
            List<String> attempts = Stores.attemptsOf(id);
            assertThat(attempts).as("attempts of " + id).noneMatch(a -> a.startsWith("SUCCESS"))
                    .noneMatch(a -> a.startsWith("RUNNING"));
            started += attempts.isEmpty() ? 0 : 1;
        }
        System.out.printf("[measure] %d of %d jobs cancelled at acceptance had been dispatched to a worker%n",
                started, jobs);
    }

    private static void awaitStarted(UUID id) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (Executions.inFlight(List.of(id)).isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("job " + id + " did not start within 30 s");
            }
            E2ePlatform.awaitQuietly(50);
        }
    }

    private static String sleep(long ms, String control) {
        return "{\"jobType\":\"SIMULATION\",\"payload\":{\"steps\":[{\"action\":\"SLEEP\",\"durationMs\":" + ms
                + "}]}," + control + "}";
    }
}
