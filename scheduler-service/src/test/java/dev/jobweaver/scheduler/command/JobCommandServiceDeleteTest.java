package dev.jobweaver.scheduler.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.common.event.JobCommandEvent;
import dev.jobweaver.common.event.JobStatusChangedEvent;
import dev.jobweaver.common.job.JobCommand;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.messaging.Headers;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.scheduler.job.JobExecution;
import dev.jobweaver.scheduler.testing.KafkaAndDbTest;
import dev.jobweaver.scheduler.testing.TestJobs;
import dev.jobweaver.scheduler.testing.TopicRecorder;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * A delete removes a finished job's row and publishes its tombstone on job-status and a DELETE to the workers, also
 * for a job this service does not know; a delete of a job that has not finished changes nothing.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class JobCommandServiceDeleteTest extends KafkaAndDbTest {

    @Test
    void aFinishedJobIsDeletedWithItsTombstoneAndTheWorkersDelete() {
        UUID completed = completedJob();
        UUID cancelled = cancelledJob();

        for (UUID jobId : List.of(completed, cancelled)) {
            command(TestJobs.delete(jobId));

            // RUNNING and COMPLETED, or CANCELLED, then the tombstone.
            int expected = jobId.equals(completed) ? 3 : 2;
            List<ConsumerRecord<String, byte[]>> statuses = recorder.await(Topics.JOB_STATUS, jobId, expected);
            ConsumerRecord<String, byte[]> tombstone = statuses.getLast();
            assertThat(tombstone.value()).as("tombstone of %s", jobId).isNull();
            assertThat(tombstone.key()).isEqualTo(jobId.toString());
            assertThat(TopicRecorder.header(tombstone, Headers.EVENT_ID)).isNotNull();
            // the tombstone is published before the delete commits: wait for the row to go
            await().atMost(Duration.ofSeconds(10)).until(() -> db.find(jobId).isEmpty());
            JobCommandEvent toWorkers = value(recorder.await(Topics.WORKER_COMMANDS, jobId, 1).getLast(),
                    JobCommandEvent.class);
            assertThat(toWorkers.command()).isEqualTo(JobCommand.DELETE);
            assertThat(toWorkers.jobId()).isEqualTo(jobId);
        }
    }

    @Test
    void aDeleteOfAnUnknownJobPublishesTheTombstoneAndTheWorkersDeleteAnyway() {
        UUID unknown = UUID.randomUUID();

        command(TestJobs.delete(unknown));

        assertThat(recorder.await(Topics.JOB_STATUS, unknown, 1).getFirst().value()).isNull();
        assertThat(value(recorder.await(Topics.WORKER_COMMANDS, unknown, 1).getFirst(), JobCommandEvent.class)
                .command()).isEqualTo(JobCommand.DELETE);
        assertThat(db.find(unknown)).isEmpty();
    }

    @Test
    void aDeleteOfARunningOrPendingJobChangesNothing() {
        UUID running = runningJob();
        UUID pending = delayedJob();
        List<JobExecution> before = List.of(db.get(running), db.get(pending));

        commandsApplied(TestJobs.delete(running), TestJobs.delete(pending));

        assertThat(List.of(db.get(running), db.get(pending))).isEqualTo(before);
        allRecorded();
        assertThat(recorder.records(Topics.JOB_STATUS, running)).hasSize(1);
        assertThat(statuses(running)).extracting(JobStatusChangedEvent::status).containsExactly(JobStatus.RUNNING);
        assertThat(recorder.records(Topics.JOB_STATUS, pending)).isEmpty();
        assertThat(workerCommands(running)).isEmpty();
        assertThat(workerCommands(pending)).isEmpty();
    }
}
