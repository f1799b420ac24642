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
import dev.jobweaver.scheduler.dispatch.Dispatcher;
import dev.jobweaver.scheduler.job.JobExecution;
import dev.jobweaver.scheduler.testing.KafkaAndDbTest;
import dev.jobweaver.scheduler.testing.TestJobs;
import dev.jobweaver.scheduler.testing.TopicRecorder;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * A cancel ends a PENDING job (for later, or waiting for its retry) and a RUNNING one CANCELLED with the next version
 * and publishes that status once; only a RUNNING job's cancel reaches the workers. A finished job, and a job already
 * cancelled (a redelivered cancel), are left as they are.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class JobCommandServiceCancelTest extends KafkaAndDbTest {

    @Inject
    Dispatcher dispatcher;

    @Inject
    MeterRegistry registry;

    @Test
    void aJobForLaterIsCancelledAndNothingReachesTheWorkers() {
        UUID jobId = delayedJob();
        JobExecution before = db.get(jobId);
        double cancelledBefore = registry.counter("jobweaver.jobs.cancelled").count();

        command(TestJobs.cancel(jobId));

        JobExecution cancelled = db.awaitJob(jobId, j -> j.status() == JobStatus.CANCELLED);
        assertCancelled(before, cancelled);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(registry.counter("jobweaver.jobs.cancelled").count()).isGreaterThan(cancelledBefore));
        JobStatusChangedEvent status = awaitStatuses(jobId, 1).getFirst();
        assertThat(status.status()).isEqualTo(JobStatus.CANCELLED);
        assertThat(status.version()).isEqualTo(before.version() + 1);
        assertThat(status.finishedAt()).isEqualTo(cancelled.finishedAt());
        assertThat(status.nextRunAt()).isNull();
        commandsApplied();
        assertThat(workerCommands(jobId)).isEmpty();
        assertThat(recorder.records(Topics.RUN_JOB, jobId)).isEmpty();
    }

    @Test
    void aJobWaitingForItsRetryIsCancelledWithItsLastError() {
        UUID jobId = UUID.randomUUID();
        producer.sendJson(Topics.JOB_CREATED, jobId, TestJobs.created(jobId, 3));
        db.awaitJob(jobId, JobStatus.RUNNING, 1);
        producer.sendJson(Topics.JOB_FAILED, jobId, TestJobs.failed(jobId, 1, "boom"));
        db.awaitJob(jobId, j -> j.status() == JobStatus.PENDING && j.retryCount() == 1);
        // The retry waits an hour rather than the backoff's 5 s, so that it cannot start before the cancel comes.
        db.update("UPDATE job_executions SET next_run_at = now() + interval '1 hour' WHERE job_id = $1", jobId);
        JobExecution waiting = db.get(jobId);

        command(TestJobs.cancel(jobId));

        JobExecution cancelled = db.awaitJob(jobId, j -> j.status() == JobStatus.CANCELLED);
        assertCancelled(waiting, cancelled);
        assertThat(cancelled.lastError()).isEqualTo("boom");
        List<JobStatusChangedEvent> statuses = awaitStatuses(jobId, 3);
        assertThat(statuses).extracting(JobStatusChangedEvent::status)
                .containsExactly(JobStatus.RUNNING, JobStatus.PENDING, JobStatus.CANCELLED);
        assertThat(statuses.get(2).version()).isEqualTo(waiting.version() + 1);
        assertThat(statuses.get(2).lastError()).isEqualTo("boom");
        assertThat(statuses.get(2).attempts()).isEqualTo(1);
        commandsApplied();
        assertThat(workerCommands(jobId)).isEmpty();
        // The backoff passes: the job is not dispatched again.
        db.update("UPDATE job_executions SET next_run_at = now() - interval '1 second' WHERE job_id = $1", jobId);
        db.dispatchAllDue(dispatcher);
        assertThat(recorder.records(Topics.RUN_JOB, jobId)).hasSize(1);
        assertThat(db.get(jobId).status()).isEqualTo(JobStatus.CANCELLED);
    }

    @Test
    void aRunningJobIsCancelledAndTheWorkersAreToldInTheJobsTrace() {
        UUID jobId = runningJob();
        JobExecution running = db.get(jobId);

        command(TestJobs.cancel(jobId));

        JobExecution cancelled = db.awaitJob(jobId, j -> j.status() == JobStatus.CANCELLED);
        assertCancelled(running, cancelled);
        assertThat(cancelled.attempt()).isEqualTo(1);
        List<JobStatusChangedEvent> statuses = awaitStatuses(jobId, 2);
        assertThat(statuses).extracting(JobStatusChangedEvent::status)
                .containsExactly(JobStatus.RUNNING, JobStatus.CANCELLED);
        assertThat(statuses.get(1).version()).isEqualTo(running.version() + 1);

        ConsumerRecord<String, byte[]> record = recorder.await(Topics.WORKER_COMMANDS, jobId, 1).getFirst();
        JobCommandEvent toWorkers = value(record, JobCommandEvent.class);
        assertThat(toWorkers.jobId()).isEqualTo(jobId);
        assertThat(toWorkers.command()).isEqualTo(JobCommand.CANCEL);
        assertThat(toWorkers.traceId()).isEqualTo(running.traceId());
        assertThat(UUID.fromString(TopicRecorder.header(record, Headers.EVENT_ID))).isNotNull();
        String jobTrace = running.traceparent().split("-")[1];
        assertThat(TopicRecorder.header(record, Headers.TRACEPARENT)).contains(jobTrace);
    }

    @Test
    void aCancelOfAFinishedJobOrARedeliveredCancelChangesNothing() {
        UUID completed = completedJob();
        UUID failed = runningJob();
        producer.sendJson(Topics.JOB_FAILED, failed, TestJobs.failed(failed, 1, "boom"));
        db.awaitJob(failed, j -> j.status() == JobStatus.FAILED);
        UUID cancelled = runningJob();
        command(TestJobs.cancel(cancelled));
        db.awaitJob(cancelled, j -> j.status() == JobStatus.CANCELLED);
        recorder.await(Topics.WORKER_COMMANDS, cancelled, 1);
        List<UUID> jobs = List.of(completed, failed, cancelled);
        List<JobExecution> before = jobs.stream().map(db::get).toList();
        List<Integer> statusesBefore = jobs.stream().map(id -> awaitStatuses(id, 2).size()).toList();

        commandsApplied(TestJobs.cancel(completed), TestJobs.cancel(failed), TestJobs.cancel(cancelled),
                TestJobs.cancel(cancelled));

        assertThat(jobs.stream().map(db::get).toList()).isEqualTo(before);
        allRecorded();
        assertThat(jobs.stream().map(id -> statuses(id).size()).toList()).isEqualTo(statusesBefore);
        assertThat(workerCommands(completed)).isEmpty();
        assertThat(workerCommands(failed)).isEmpty();
        assertThat(workerCommands(cancelled)).hasSize(1);
    }

    private static void assertCancelled(JobExecution before, JobExecution cancelled) {
        assertThat(cancelled.status()).isEqualTo(JobStatus.CANCELLED);
        assertThat(cancelled.version()).isEqualTo(before.version() + 1);
        assertThat(cancelled.finishedAt()).isNotNull();
        assertThat(cancelled.leaseUntil()).isNull();
        assertThat(cancelled.attempt()).isEqualTo(before.attempt());
    }
}
