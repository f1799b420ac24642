package dev.jobweaver.scheduler.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.common.event.JobCommandEvent;
import dev.jobweaver.common.event.JobStatusChangedEvent;
import dev.jobweaver.common.job.JobCommand;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.QuarantineHeaders;
import dev.jobweaver.common.quarantine.QuarantineReason;
import dev.jobweaver.scheduler.job.JobExecution;
import dev.jobweaver.scheduler.testing.KafkaAndDbTest;
import dev.jobweaver.scheduler.testing.PoisonRecords;
import dev.jobweaver.scheduler.testing.TestJobs;
import dev.jobweaver.scheduler.testing.TopicRecorder;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.testing.QuarantineTopic.Position;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * A purge (the API's retention) removes a finished job's row and publishes nothing: no job-status tombstone, no
 * worker command; a purge of a job that has not finished changes nothing. One record may purge many jobs; one that
 * breaks the rules of its jobs is quarantined.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class JobCommandServicePurgeTest extends KafkaAndDbTest {

    @Test
    void aFinishedJobIsDeletedWithoutATombstoneOrAWorkerCommand() {
        UUID completed = completedJob();
        UUID failed = deadLetteredJob("boom");
        UUID cancelled = cancelledJob();

        commandsApplied(purge(completed), purge(failed), purge(cancelled));

        for (UUID jobId : List.of(completed, failed, cancelled)) {
            await().atMost(Duration.ofSeconds(10)).until(() -> db.find(jobId).isEmpty());
        }
        allRecorded();
        // RUNNING then COMPLETED; RUNNING then FAILED; CANCELLED: the statuses the jobs had, and no tombstone after
        assertThat(statuses(completed)).extracting(JobStatusChangedEvent::status)
                .containsExactly(JobStatus.RUNNING, JobStatus.COMPLETED);
        assertThat(statuses(failed)).extracting(JobStatusChangedEvent::status)
                .containsExactly(JobStatus.RUNNING, JobStatus.FAILED);
        assertThat(statuses(cancelled)).extracting(JobStatusChangedEvent::status)
                .containsExactly(JobStatus.CANCELLED);
        for (UUID jobId : List.of(completed, failed, cancelled)) {
            assertThat(recorder.records(Topics.JOB_STATUS, jobId)).allSatisfy(r -> assertThat(r.value()).isNotNull());
            assertThat(workerCommands(jobId)).as("nothing to the workers for %s", jobId).isEmpty();
        }
    }

    @Test
    void aPurgeRepeatedOrOfAnUnknownJobChangesNothing() {
        UUID completed = completedJob();
        UUID unknown = UUID.randomUUID();

        commandsApplied(purge(completed), purge(completed), purge(unknown));

        assertThat(db.find(completed)).isEmpty();
        assertThat(db.find(unknown)).isEmpty();
        allRecorded();
        assertThat(recorder.records(Topics.JOB_STATUS, unknown)).isEmpty();
        assertThat(workerCommands(unknown)).isEmpty();
    }

    @Test
    void aPurgeOfARunningOrPendingJobChangesNothing() {
        UUID running = runningJob();
        UUID pending = delayedJob();
        List<JobExecution> before = List.of(db.get(running), db.get(pending));

        commandsApplied(purge(running), purge(pending));

        assertThat(List.of(db.get(running), db.get(pending))).isEqualTo(before);
        allRecorded();
        assertThat(statuses(running)).extracting(JobStatusChangedEvent::status).containsExactly(JobStatus.RUNNING);
        assertThat(recorder.records(Topics.JOB_STATUS, pending)).isEmpty();
        assertThat(workerCommands(running)).isEmpty();
        assertThat(workerCommands(pending)).isEmpty();
    }

    @Test
    void onePurgeOfManyJobsDeletesTheFinishedOnesAndLeavesTheOthers() {
        UUID completed = completedJob();
        UUID failed = deadLetteredJob("boom");
        UUID running = runningJob();
        UUID unknown = UUID.randomUUID();
        JobExecution runningBefore = db.get(running);

        commandsApplied(JobCommandEvent.purge(List.of(completed, running, failed, unknown), Instant.now()));

        assertThat(db.find(completed)).isEmpty();
        assertThat(db.find(failed)).isEmpty();
        assertThat(db.get(running)).isEqualTo(runningBefore);
        allRecorded();
        assertThat(statuses(completed)).extracting(JobStatusChangedEvent::status)
                .containsExactly(JobStatus.RUNNING, JobStatus.COMPLETED);
        assertThat(recorder.records(Topics.JOB_STATUS, unknown)).isEmpty();
        for (UUID jobId : List.of(completed, failed, running, unknown)) {
            assertThat(workerCommands(jobId)).as("nothing to the workers for %s", jobId).isEmpty();
        }
    }

    @Test
    void aPurgeThatDoesNotNameItsOwnJobIsQuarantinedAndTheCommandsAfterItApplied() {
        UUID keyed = completedJob();
        UUID named = completedJob();
        UUID next = completedJob();
        UUID sentinel = delayedJob();

        List<Long> offsets = producer.sendTogether(Topics.JOB_COMMANDS, 0, List.of(keyed, next, sentinel),
                List.of(new JobCommandEvent(keyed, JobCommand.PURGE, null, Instant.now(), null, null, null,
                        List.of(named)), purge(next), TestJobs.cancel(sentinel)));

        db.awaitJob(sentinel, j -> j.status() == JobStatus.CANCELLED);
        assertThat(db.find(next)).as("the purge after the malformed one").isEmpty();
        assertThat(db.find(keyed)).as("the malformed purge was not applied").isPresent();
        assertThat(db.find(named)).isPresent();
        Position position = new Position(Topics.JOB_COMMANDS, 0, offsets.getFirst());
        Map<Position, ConsumerRecord<String, byte[]>> copies = PoisonRecords.awaitQuarantined(bootstrapServers,
                List.of(position));
        assertThat(copies).containsKey(position);
        assertThat(TopicRecorder.header(copies.get(position), QuarantineHeaders.REASON))
                .isEqualTo(QuarantineReason.INVALID.name());
        assertThat(TopicRecorder.header(copies.get(position), QuarantineHeaders.DETAIL))
                .contains("jobIds must contain the command's jobId " + keyed);
    }

    private static JobCommandEvent purge(UUID jobId) {
        return new JobCommandEvent(jobId, JobCommand.PURGE, null, Instant.now());
    }
}
