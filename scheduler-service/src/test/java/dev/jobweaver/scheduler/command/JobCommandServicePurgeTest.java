package dev.jobweaver.scheduler.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.common.event.JobCommandEvent;
import dev.jobweaver.common.event.JobStatusChangedEvent;
import dev.jobweaver.common.job.JobCommand;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.scheduler.job.JobExecution;
import dev.jobweaver.scheduler.testing.KafkaAndDbTest;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A purge (the API's retention) removes a finished job's row and publishes nothing: no job-status tombstone, no
 * worker command; a purge of a job that has not finished changes nothing.
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

    private static JobCommandEvent purge(UUID jobId) {
        return new JobCommandEvent(jobId, JobCommand.PURGE, null, Instant.now());
    }
}
