package dev.jobweaver.worker.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.common.messaging.EventIds;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.worker.testing.WorkerKafka;
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
        UUID jobId = UUID.randomUUID();
        UUID eventId = EventIds.runEventId(jobId, 1);
        Instant now = Instant.now();
        // Written by hand, field for field, as the old record serialised: no control, payload {"steps": [...]}.
        String old = """
                {"eventId":"%s","jobId":"%s","attempt":1,"jobType":"SIMULATION",\
                "payload":{"steps":[{"action":"LOG","message":"from an old scheduler"},{"action":"SLEEP","durationMs":20}]},\
                "traceId":null,"createdAt":"%s","dispatchedAt":"%s","leaseUntil":"%s"}"""
                .formatted(eventId, jobId, now, now, now.plusSeconds(600));

        kafka.sendRaw(jobId.toString(), old, eventId, null, null);

        Outcome outcome = await().atMost(WAIT).until(() -> kafka.outcomes(jobId), l -> !l.isEmpty()).getFirst();
        assertThat(outcome.topic()).isEqualTo(Topics.JOB_COMPLETED);
        assertThat(outcome.value().path("eventId").asText()).isEqualTo(eventId.toString());
        assertThat(outcome.value().has("result")).as("a SIMULATION job reports no result").isFalse();
    }

    @Test
    void anEventWithAnEmptyControlRunsWithTheDefaults() {
        UUID jobId = UUID.randomUUID();
        UUID eventId = EventIds.runEventId(jobId, 1);
        Instant now = Instant.now();
        String empty = """
                {"eventId":"%s","jobId":"%s","attempt":1,"jobType":"SIMULATION",\
                "payload":{"steps":[{"action":"LOG","message":"empty control"}]},\
                "createdAt":"%s","dispatchedAt":"%s","leaseUntil":"%s","control":{}}"""
                .formatted(eventId, jobId, now, now, now.plusSeconds(600));

        kafka.sendRaw(jobId.toString(), empty, eventId, null, null);

        Outcome outcome = await().atMost(WAIT).until(() -> kafka.outcomes(jobId), l -> !l.isEmpty()).getFirst();
        assertThat(outcome.topic()).isEqualTo(Topics.JOB_COMPLETED);
    }
}
