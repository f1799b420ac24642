package dev.jobweaver.worker.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.common.job.Step;
import dev.jobweaver.common.messaging.EventIds;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.testing.QuarantineTopic;
import dev.jobweaver.testing.QuarantineTopic.Position;
import dev.jobweaver.worker.testing.WorkerDatabase;
import dev.jobweaver.worker.testing.WorkerDatabase.AttemptRow;
import dev.jobweaver.worker.testing.WorkerKafka;
import dev.jobweaver.worker.testing.WorkerKafka.Outcome;
import dev.jobweaver.worker.testing.WorkerKafkaSupport;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.Test;

/**
 * The executable's way of a {@code run-job} record through real Kafka and PostgreSQL: read, recorded, run on its
 * steps, its outcome published and the attempt's row closed; a record that does not parse quarantined as it was.
 */
@QuarkusIntegrationTest
@JobWeaverTest(database = WorkerDatabase.NAME)
class RunJobIT extends WorkerKafkaSupport {

    @Test
    void aSimulationRunsEveryStepKindAndItsCompletionIsPublished() {
        RunJobEvent run = WorkerKafka.run(new Step.Log("native " + UUID.randomUUID()), new Step.Sleep(10L),
                new Step.Compute(1000L), new Step.HttpCall("http://example.invalid", 10L));
        kafka.send(run, null);

        Outcome outcome = firstOutcome(run.jobId());
        assertThat(outcome.topic()).isEqualTo(Topics.JOB_COMPLETED);
        assertThat(outcome.key()).isEqualTo(run.jobId().toString());
        assertThat(outcome.eventIdHeader()).isEqualTo(EventIds.outcomeEventId(run.eventId()).toString());
        assertThat(outcome.value().path("eventId").asText()).isEqualTo(run.eventId().toString());
        assertThat(outcome.value().path("attempt").asInt()).isEqualTo(1);
        assertThat(outcome.value().path("startedAt").asText()).isNotEmpty();
        assertThat(outcome.value().path("finishedAt").asText()).isNotEmpty();
        AttemptRow row = WorkerDatabase.attempt(run.eventId());
        assertThat(row.outcome()).isEqualTo("SUCCESS");
        assertThat(row.workerId()).isEqualTo(outcome.value().path("workerId").asText());
    }

    @Test
    void aFailingStepIsPublishedOnJobFailedWithItsMessage() {
        String message = "native failure " + UUID.randomUUID();
        RunJobEvent run = WorkerKafka.run(new Step.Log("before"), new Step.Fail(message));
        kafka.send(run, null);

        Outcome outcome = firstOutcome(run.jobId());
        assertThat(outcome.topic()).isEqualTo(Topics.JOB_FAILED);
        assertThat(outcome.errorMessage()).isEqualTo(message);
        AttemptRow row = WorkerDatabase.attempt(run.eventId());
        assertThat(row.outcome()).isEqualTo("FAILURE");
        assertThat(row.errorMessage()).isEqualTo(message);
    }

    @Test
    void aRecordThatDoesNotParseIsQuarantinedAndTheNextRecordRuns() {
        RecordMetadata bad = kafka.sendRaw(UUID.randomUUID().toString(), "{not json", UUID.randomUUID(), 0, null);
        RunJobEvent after = WorkerKafka.run(new Step.Log("after the malformed one"));
        kafka.send(after, 0);

        assertThat(firstOutcome(after.jobId()).topic()).isEqualTo(Topics.JOB_COMPLETED);
        Position origin = new Position(bad.topic(), bad.partition(), bad.offset());
        Map<Position, ConsumerRecord<String, byte[]>> found = QuarantineTopic.awaitQuarantined(WorkerKafka.bootstrap(),
                List.of(origin), WAIT);
        assertThat(found).containsKey(origin);
        assertThat(found.get(origin).value()).asString(StandardCharsets.UTF_8).isEqualTo("{not json");
    }
}
