package dev.jobweaver.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.e2e.support.E2ePlatform;
import dev.jobweaver.e2e.support.Executions;
import dev.jobweaver.e2e.support.HealthyPlatform;
import dev.jobweaver.e2e.support.JobWeaverClient;
import dev.jobweaver.e2e.support.JobWeaverClient.Answer;
import dev.jobweaver.e2e.support.Recovery;
import dev.jobweaver.e2e.support.SubmissionLoad;
import dev.jobweaver.local.KafkaBroker;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Scenario 7: the Kafka broker stops for 10 s while jobs flow. Kafka being down delays jobs, it does not refuse them:
 * every submission is answered 202 (none 503), every one completes once the broker is back, each ran once, and during
 * the outage the API's readiness details show the outbox backlog and its age while it stays ready.
 */
@HealthyPlatform
class KafkaOutageIT {

    @Test
    void submissionsDuringABrokerOutageAreAcceptedAndAllCompleteAfterIt() throws Exception {
        JobWeaverClient api = E2ePlatform.api();
        KafkaBroker kafka = E2ePlatform.get().stack().kafka();
        AtomicLong backlog = new AtomicLong();
        AtomicLong oldestSeconds = new AtomicLong();
        SubmissionLoad load = new SubmissionLoad(api, 4, 20);
        long restarted = load.around(kafka::stop, () -> {
            long outageEnds = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (System.nanoTime() < outageEnds) {
                Answer ready = api.get("/q/health/ready");
                assertThat(ready.status()).as("API readiness while Kafka is down: " + ready.rawBody()).isEqualTo(200);
                JsonNode relay = relayDetails(ready.body());
                backlog.accumulateAndGet(relay.path("backlogJobs").asLong(), Math::max);
                oldestSeconds.accumulateAndGet(relay.path("backlogOldestAgeSeconds").asLong(), Math::max);
                E2ePlatform.awaitQuietly(1_000);
            }
        }, kafka::start, 2_000);
        long backlogSeen = backlog.get();
        long oldestSeenSeconds = oldestSeconds.get();

        assertThat(load.unexpected()).as("answers other than 202 (a 500 is a bug)").isEmpty();
        assertThat(load.unavailable()).as("submissions answered 503 during a 10 s outage").isEmpty();
        assertThat(backlogSeen).as("outbox backlog shown in readiness during the outage").isPositive();
        assertThat(oldestSeenSeconds).as("age of the oldest unpublished job shown during the outage").isPositive();
        List<UUID> accepted = load.accepted();
        double recovered = Recovery.allCompleted(api, accepted, Duration.ofMinutes(3), restarted).seconds();
        Map<UUID, Integer> executions = Executions.perJob(accepted);
        assertThat(executions.values()).as("executions per accepted job").containsOnly(1);
        System.out.printf("[measure] scenario 7: 10 s broker outage; %d jobs accepted (0 answered 503), all COMPLETED"
                + " within %.1f s of the restart, each once; readiness showed up to %d unpublished jobs, the oldest"
                + " %d s old%n", accepted.size(), recovered, backlogSeen, oldestSeenSeconds);
    }

    /** The outbox relay's readiness details. */
    private static JsonNode relayDetails(JsonNode ready) {
        for (JsonNode check : ready.path("checks")) {
            if (check.path("name").asText().startsWith("outbox relay")) {
                return check.path("data");
            }
        }
        throw new AssertionError("no outbox relay check in " + ready);
    }
}
