package dev.jobweaver.scheduler.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobweaver.common.event.JobCommandEvent;
import dev.jobweaver.common.job.JobCommand;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.QuarantineHeaders;
import dev.jobweaver.common.quarantine.QuarantineReason;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.testing.QuarantineTopic.Position;
import dev.jobweaver.scheduler.job.JobExecution;
import dev.jobweaver.scheduler.testing.KafkaAndDbTest;
import dev.jobweaver.scheduler.testing.PoisonRecords;
import dev.jobweaver.scheduler.testing.TestJobs;
import dev.jobweaver.scheduler.testing.TopicRecorder;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * A malformed requeue is quarantined at its position, and the commands beside it in the same poll, and after it, are
 * applied: one whose payload does not fit its job's type (found only against the job's row, so the poll is split
 * around it), one whose retries are out of range, a cancel that carries a requeue's fields.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class JobCommandConsumerRequeueQuarantineTest extends KafkaAndDbTest {

    @Test
    void malformedRequeuesAreQuarantinedAndTheCommandsAroundThemApplied() {
        UUID badPayload = deadLetteredJob("boom");
        UUID good = deadLetteredJob("boom");
        UUID tooManyRetries = deadLetteredJob("boom");
        UUID cancelWithPayload = delayedJob();
        JobExecution badPayloadBefore = db.get(badPayload);
        JobExecution tooManyRetriesBefore = db.get(tooManyRetries);
        ObjectNode notASimulation = mapper.createObjectNode();
        notASimulation.putArray("steps").addObject().put("action", "EXPLODE");
        ObjectNode fixed = mapper.createObjectNode();
        fixed.putArray("steps").addObject().put("action", "LOG").put("message", "fixed");
        UUID sentinel = delayedJob();

        List<Long> offsets = producer.sendTogether(Topics.JOB_COMMANDS, 0,
                List.of(badPayload, good, tooManyRetries, cancelWithPayload, sentinel),
                List.of(TestJobs.requeue(badPayload, notASimulation, null), TestJobs.requeue(good, null, 0),
                        TestJobs.requeue(tooManyRetries, null, 11),
                        new JobCommandEvent(cancelWithPayload, JobCommand.CANCEL, TestJobs.traceId(cancelWithPayload),
                                Instant.now(), fixed, null, null),
                        TestJobs.cancel(sentinel)));

        db.awaitJob(sentinel, j -> j.status() == JobStatus.CANCELLED);
        db.awaitJob(good, JobStatus.RUNNING, 2);
        assertThat(db.get(badPayload)).isEqualTo(badPayloadBefore);
        assertThat(db.get(tooManyRetries)).isEqualTo(tooManyRetriesBefore);
        assertThat(db.get(cancelWithPayload).status()).isEqualTo(JobStatus.PENDING);

        List<Position> positions = List.of(offsets.get(0), offsets.get(2), offsets.get(3)).stream()
                .map(offset -> new Position(Topics.JOB_COMMANDS, 0, offset)).toList();
        Map<Position, ConsumerRecord<String, byte[]>> copies = PoisonRecords.awaitQuarantined(bootstrapServers,
                positions);
        assertThat(copies).containsKeys(positions.toArray(Position[]::new));
        for (Position position : positions) {
            assertThat(TopicRecorder.header(copies.get(position), QuarantineHeaders.REASON))
                    .isEqualTo(QuarantineReason.INVALID.name());
        }
        assertThat(TopicRecorder.header(copies.get(positions.get(0)), QuarantineHeaders.DETAIL))
                .contains("payload").contains("SIMULATION");
        assertThat(TopicRecorder.header(copies.get(positions.get(1)), QuarantineHeaders.DETAIL))
                .contains("maxRetryCount must be between 0 and 10, got 11");

        // The partition goes on: a requeue of the same job with a payload that fits is applied.
        command(TestJobs.requeue(badPayload, fixed, null));
        db.awaitJob(badPayload, JobStatus.RUNNING, 2);
    }
}
