package dev.jobweaver.worker.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.messaging.EventIds;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.worker.testing.WorkerKafka.Outcome;
import dev.jobweaver.worker.testing.WorkerKafkaTest;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A {@code run-job} record as schedulers wrote it before job control (no {@code control}) still runs as before. */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_worker")
class RunJobEventCompatibilityTest extends WorkerKafkaTest {

    @Test
    void anEventWithoutControlRunsAndCompletesWithoutAResult() {
        // Written by hand, field for field, as the old record serialised: no control, payload {"steps": [...]}.
        Outcome outcome = runByHand("""
                {"eventId":"%s","jobId":"%s","attempt":1,"jobType":"SIMULATION",\
                "payload":{"steps":[{"action":"LOG","message":"from an old scheduler"},{"action":"SLEEP","durationMs":20}]},\
                "traceId":null,"createdAt":"%s","dispatchedAt":"%s","leaseUntil":"%s"}""");
        assertThat(outcome.topic()).isEqualTo(Topics.JOB_COMPLETED);
        assertThat(outcome.value().path("eventId").asText())
                .isEqualTo(EventIds.runEventId(UUID.fromString(outcome.key()), 1).toString());
        assertThat(outcome.value().has("result")).as("a SIMULATION job reports no result").isFalse();
    }

    @Test
    void anEventWithAnEmptyControlRunsWithTheDefaults() {
        Outcome outcome = runByHand("""
                {"eventId":"%s","jobId":"%s","attempt":1,"jobType":"SIMULATION",\
                "payload":{"steps":[{"action":"LOG","message":"empty control"}]},\
                "createdAt":"%s","dispatchedAt":"%s","leaseUntil":"%s","control":{}}""");
        assertThat(outcome.topic()).isEqualTo(Topics.JOB_COMPLETED);
    }

    /**
     * Sends {@code template}, filled in with the first attempt of a job of its own (eventId, jobId, created, dispatched,
     * lease), as the value of a {@code run-job} record, and waits for the run's first outcome.
     */
    private Outcome runByHand(String template) {
        UUID jobId = UUID.randomUUID();
        UUID eventId = EventIds.runEventId(jobId, 1);
        Instant now = Instant.now();
        kafka.sendRaw(jobId.toString(), template.formatted(eventId, jobId, now, now, now.plusSeconds(600)), eventId,
                null, null);
        return firstOutcome(jobId);
    }
}
