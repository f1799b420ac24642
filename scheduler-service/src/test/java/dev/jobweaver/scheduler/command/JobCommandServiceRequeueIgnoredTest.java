package dev.jobweaver.scheduler.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.common.event.JobCommandEvent;
import dev.jobweaver.common.event.JobStatusChangedEvent;
import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.scheduler.job.JobExecution;
import dev.jobweaver.scheduler.testing.KafkaAndDbTest;
import dev.jobweaver.scheduler.testing.TestJobs;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A requeue changes only a FAILED job: of a PENDING, RUNNING, COMPLETED or CANCELLED job, or of an unknown one, it
 * changes and publishes nothing and is counted as ignored; a requeue delivered twice requeues the job once, and one
 * delivered again after the job failed anew names a failure the job has left behind and changes nothing.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class JobCommandServiceRequeueIgnoredTest extends KafkaAndDbTest {

    @Inject
    MeterRegistry registry;

    @Test
    void aRequeueOfAJobThatIsNotFailedOrUnknownChangesNothing() {
        UUID pending = delayedJob();
        UUID running = runningJob();
        UUID completed = completedJob();
        UUID cancelled = cancelledJob();
        UUID unknown = UUID.randomUUID();
        List<UUID> jobs = List.of(pending, running, completed, cancelled);
        recorder.await(Topics.JOB_STATUS, completed, 2);
        recorder.await(Topics.JOB_STATUS, cancelled, 1);
        List<JobExecution> before = jobs.stream().map(db::get).toList();
        List<Integer> statusesBefore = jobs.stream().map(id -> statuses(id).size()).toList();
        double ignoredBefore = ignored();
        double requeuedBefore = registry.counter("jobweaver.jobs.requeued").count();

        commandsApplied(TestJobs.requeue(pending, null, 3), TestJobs.requeue(running, null, 3),
                TestJobs.requeue(completed, null, null), TestJobs.requeue(cancelled, null, 3),
                TestJobs.requeue(unknown, null, 3));

        assertThat(jobs.stream().map(db::get).toList()).isEqualTo(before);
        assertThat(db.find(unknown)).isEmpty();
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(ignored()).isEqualTo(ignoredBefore + 5));
        assertThat(registry.counter("jobweaver.jobs.requeued").count()).isEqualTo(requeuedBefore);
        allRecorded();
        assertThat(jobs.stream().map(id -> statuses(id).size()).toList()).isEqualTo(statusesBefore);
        assertThat(statuses(unknown)).isEmpty();
        for (UUID jobId : List.of(pending, running, completed, cancelled, unknown)) {
            assertThat(workerCommands(jobId)).as("worker commands of %s", jobId).isEmpty();
        }
    }

    @Test
    void aRequeueDeliveredTwiceRequeuesOnce() {
        UUID jobId = deadLetteredJob("boom");
        double ignoredBefore = ignored();

        // Twice in one poll: the second finds the job PENDING.
        commandsApplied(TestJobs.requeue(jobId, null, 2), TestJobs.requeue(jobId, null, 2));
        db.awaitJob(jobId, JobStatus.RUNNING, 2);
        // Again once it runs: it finds the job RUNNING.
        commandsApplied(TestJobs.requeue(jobId, null, 2));

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(ignored()).isEqualTo(ignoredBefore + 2));
        allRecorded();
        JobExecution job = db.get(jobId);
        assertThat(job.status()).isEqualTo(JobStatus.RUNNING);
        assertThat(job.attempt()).isEqualTo(2);
        assertThat(job.version()).isEqualTo(4);
        assertThat(statuses(jobId)).extracting(JobStatusChangedEvent::status)
                .containsExactly(JobStatus.RUNNING, JobStatus.FAILED, JobStatus.PENDING, JobStatus.RUNNING);
        assertThat(recorder.records(Topics.RUN_JOB, jobId)).extracting(r -> value(r, RunJobEvent.class).attempt())
                .containsExactly(1, 2);
    }

    @Test
    void aRequeueOfAnEarlierFailureIsIgnoredAndOneOfTheCurrentFailureRequeues() {
        UUID jobId = deadLetteredJob("boom");
        Instant firstFailure = db.get(jobId).finishedAt();
        JobCommandEvent requeueOfFirst = TestJobs.requeue(jobId, null, 0, firstFailure);
        commandsApplied(requeueOfFirst);
        db.awaitJob(jobId, JobStatus.RUNNING, 2);
        producer.sendJson(Topics.JOB_FAILED, jobId, TestJobs.failed(jobId, 2, "boom again"));
        JobExecution failedAgain = db.awaitJob(jobId, j -> j.status() == JobStatus.FAILED && j.attempt() == 2);
        double ignoredBefore = ignored();

        // Kafka delivers the first requeue again (its poll was redone): it names a failure the job has left behind.
        commandsApplied(requeueOfFirst);

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(ignored()).isEqualTo(ignoredBefore + 1));
        allRecorded();
        assertThat(db.get(jobId)).isEqualTo(failedAgain);

        // The review of the second failure names it, and runs the job a third time.
        commandsApplied(TestJobs.requeue(jobId, null, 0, failedAgain.finishedAt()));
        db.awaitJob(jobId, JobStatus.RUNNING, 3);
        assertThat(recorder.records(Topics.RUN_JOB, jobId)).extracting(r -> value(r, RunJobEvent.class).attempt())
                .containsExactly(1, 2, 3);
    }

    private double ignored() {
        Counter counter = registry.find("jobweaver.commands.ignored").tag("command", "requeue").counter();
        return counter == null ? 0 : counter.count();
    }
}
