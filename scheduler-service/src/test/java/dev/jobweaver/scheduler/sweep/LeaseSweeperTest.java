package dev.jobweaver.scheduler.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.common.event.DeadLetterEvent;
import dev.jobweaver.common.event.JobStatusChangedEvent;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.scheduler.dispatch.Dispatcher;
import dev.jobweaver.scheduler.job.JobExecution;
import dev.jobweaver.scheduler.job.JobStateMachine;
import dev.jobweaver.scheduler.testing.KafkaAndDbTest;
import dev.jobweaver.scheduler.testing.TestJobs;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class LeaseSweeperTest extends KafkaAndDbTest {

    @Inject
    Dispatcher dispatcher;

    @Inject
    LeaseSweeper sweeper;

    @Inject
    MeterRegistry registry;

    @Test
    void expiredLeaseIsAFailedAttemptThatIsRetriedThenDeadLettered() {
        double expiredBefore = registry.counter("jobweaver.leases.expired").count();
        UUID jobId = runningJob(1);

        assertThat(db.expireLease(jobId)).isEqualTo(1);
        JobExecution pending = db.awaitJob(jobId, j -> j.status() == JobStatus.PENDING);
        assertThat(pending.retryCount()).isEqualTo(1);
        assertThat(pending.lastError()).isEqualTo(JobStateMachine.LEASE_EXPIRED);
        assertThat(pending.leaseUntil()).isNull();
        assertThat(Duration.between(pending.updatedAt(), pending.nextRunAt())).isEqualTo(Duration.ofSeconds(5));

        db.makeDue(jobId);
        dispatcher.wake();
        db.awaitJob(jobId, JobStatus.RUNNING, 2);
        assertThat(db.expireLease(jobId)).isEqualTo(1);

        JobExecution failed = db.awaitJob(jobId, j -> j.status() == JobStatus.FAILED);
        assertThat(failed.lastError()).isEqualTo(JobStateMachine.LEASE_EXPIRED);
        DeadLetterEvent deadLetter = value(recorder.await(Topics.JOB_DEAD_LETTER, jobId, 1).getFirst(),
                DeadLetterEvent.class);
        assertThat(deadLetter.reason()).isEqualTo(JobStateMachine.LEASE_EXPIRED);
        assertThat(deadLetter.finalRetryCount()).isEqualTo(1);
        List<JobStatusChangedEvent> statuses = awaitStatuses(jobId, 4);
        assertThat(statuses).extracting(JobStatusChangedEvent::status)
                .containsExactly(JobStatus.RUNNING, JobStatus.PENDING, JobStatus.RUNNING, JobStatus.FAILED);
        assertThat(statuses).extracting(JobStatusChangedEvent::version).containsExactly(1L, 2L, 3L, 4L);
        // counted just after the commit that the row shows
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(registry.counter("jobweaver.leases.expired").count() - expiredBefore).isEqualTo(2.0));
    }

    @Test
    void aRunningJobWithinItsLeaseIsLeftAlone() {
        UUID jobId = runningJob(1);
        sweeper.sweepAll().await().atMost(Duration.ofSeconds(30));
        JobExecution job = db.get(jobId);
        assertThat(job.status()).isEqualTo(JobStatus.RUNNING);
        assertThat(job.version()).isEqualTo(1);
    }

    @Test
    void aLateSuccessOfTheExpiredAttemptCompletesTheJobInsteadOfRunningItAgain() {
        UUID jobId = runningJob(2);
        db.expireLease(jobId);
        db.awaitJob(jobId, j -> j.status() == JobStatus.PENDING);

        producer.sendJson(Topics.JOB_COMPLETED, jobId, TestJobs.completed(jobId, 1));
        JobExecution done = db.awaitJob(jobId, j -> j.status() == JobStatus.COMPLETED);
        assertThat(done.attempt()).isEqualTo(1);
        assertThat(done.version()).isEqualTo(3);
        // Its retry was never dispatched.
        db.makeDue(jobId);
        dispatcher.dispatchRound().await().atMost(Duration.ofSeconds(30));
        assertThat(recorder.await(Topics.RUN_JOB, jobId, 1)).hasSize(1);
    }

    private UUID runningJob(int maxRetries) {
        UUID jobId = UUID.randomUUID();
        producer.sendJson(Topics.JOB_CREATED, jobId, TestJobs.created(jobId, maxRetries));
        db.awaitJob(jobId, JobStatus.RUNNING, 1);
        return jobId;
    }
}
