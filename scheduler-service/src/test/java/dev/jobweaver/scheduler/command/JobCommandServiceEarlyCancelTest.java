package dev.jobweaver.scheduler.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.event.JobStatusChangedEvent;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.scheduler.dispatch.Dispatcher;
import dev.jobweaver.scheduler.job.JobExecution;
import dev.jobweaver.scheduler.job.store.JobInserts;
import dev.jobweaver.scheduler.sweep.EarlyCancelSweeper;
import dev.jobweaver.scheduler.testing.KafkaAndDbTest;
import dev.jobweaver.scheduler.testing.TestDb.OpenTransaction;
import dev.jobweaver.scheduler.testing.TestJobs;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A cancel that comes before its job is kept, and the job is then stored CANCELLED, published once as such and never
 * dispatched; kept cancels of jobs that never come expire.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class JobCommandServiceEarlyCancelTest extends KafkaAndDbTest {

    @Inject
    Dispatcher dispatcher;

    @Inject
    EarlyCancelSweeper sweeper;

    @Test
    void aJobWhoseCancelCameFirstIsStoredCancelledAndNeverDispatched() {
        UUID jobId = UUID.randomUUID();
        commandsApplied(TestJobs.cancel(jobId));
        JobExecution kept = db.get(jobId);
        assertThat(kept.jobType()).isEqualTo(JobInserts.EARLY_CANCEL);
        assertThat(kept.status()).isEqualTo(JobStatus.CANCELLED);
        assertThat(kept.version()).isZero();
        // A redelivered cancel finds the kept one and changes nothing.
        commandsApplied(TestJobs.cancel(jobId));
        assertThat(db.get(jobId)).isEqualTo(kept);

        producer.sendJson(Topics.JOB_CREATED, jobId, TestJobs.created(jobId, 2));

        JobExecution stored = db.awaitJob(jobId, j -> !j.jobType().equals(JobInserts.EARLY_CANCEL));
        assertThat(stored.status()).isEqualTo(JobStatus.CANCELLED);
        assertThat(stored.jobType()).isEqualTo("SIMULATION");
        assertThat(stored.version()).isEqualTo(1);
        assertThat(stored.attempt()).isZero();
        assertThat(stored.maxRetries()).isEqualTo(2);
        assertThat(stored.traceId()).isEqualTo(TestJobs.traceId(jobId));
        assertThat(stored.finishedAt()).isNotNull();
        JobStatusChangedEvent status = awaitStatuses(jobId, 1).getFirst();
        assertThat(status.status()).isEqualTo(JobStatus.CANCELLED);
        assertThat(status.version()).isEqualTo(1);
        assertThat(status.finishedAt()).isEqualTo(stored.finishedAt());

        // A redelivered job-created changes nothing, and no dispatch round ever takes the job.
        producer.sendJson(Topics.JOB_CREATED, jobId, TestJobs.created(jobId, 2));
        runningJob();
        db.dispatchAllDue(dispatcher);
        assertThat(db.get(jobId)).isEqualTo(stored);
        settle();
        assertThat(statuses(jobId)).hasSize(1);
        assertThat(recorder.records(Topics.RUN_JOB, jobId)).isEmpty();
        assertThat(workerCommands(jobId)).isEmpty();
    }

    @Test
    void jobsIngestedTogetherWithOnesWhoseCancelCameFirstAreDispatchedAsUsual() {
        UUID cancelledFirst = UUID.randomUUID();
        commandsApplied(TestJobs.cancel(cancelledFirst));
        UUID plain = UUID.randomUUID();

        producer.sendTogether(Topics.JOB_CREATED, 0, List.of(cancelledFirst, plain),
                List.of(TestJobs.created(cancelledFirst, 0), TestJobs.created(plain, 0)));

        db.awaitJob(plain, j -> j.status() == JobStatus.RUNNING);
        assertThat(db.awaitJob(cancelledFirst, j -> j.version() == 1).status()).isEqualTo(JobStatus.CANCELLED);
        assertThat(recorder.await(Topics.RUN_JOB, plain, 1)).hasSize(1);
        assertThat(recorder.records(Topics.RUN_JOB, cancelledFirst)).isEmpty();
    }

    @Test
    void aCancelThatMeetsTheIngestionOfItsJobBeforeItsCommitCancelsTheJob() {
        UUID jobId = UUID.randomUUID();
        OpenTransaction ingestion = db.begin("INSERT INTO job_executions (job_id, job_type, trace_id, instruction,"
                + " job_status, max_retries, next_run_at, created_at, updated_at, version) VALUES ($1, 'SIMULATION',"
                + " $2, $3::text::jsonb, 'PENDING', 0, now() + interval '1 hour', now(), now(), 0)",
                jobId, TestJobs.traceId(jobId), TestJobs.LOG_INSTRUCTION);

        command(TestJobs.cancel(jobId));
        // The cancel finds no job, and its placeholder waits for the uncommitted row of the same key.
        db.awaitBlockedBehind(ingestion);
        assertThat(db.find(jobId)).isEmpty();
        ingestion.commit();

        JobExecution cancelled = db.awaitJob(jobId, j -> j.status() == JobStatus.CANCELLED);
        assertThat(cancelled.jobType()).isEqualTo("SIMULATION");
        assertThat(cancelled.version()).isEqualTo(1);
        assertThat(awaitStatuses(jobId, 1).getFirst()
                .status()).isEqualTo(JobStatus.CANCELLED);
    }

    @Test
    void anIngestionThatMeetsACancelBeingKeptStoresItsJobCancelled() {
        UUID jobId = UUID.randomUUID();
        OpenTransaction cancel = db.begin("INSERT INTO job_executions (job_id, job_type, trace_id, instruction,"
                + " job_status, max_retries, next_run_at, created_at, updated_at, finished_at, version)"
                + " VALUES ($1, '', $2, 'null'::jsonb, 'CANCELLED', 0, now(), now(), now(), now(), 0)",
                jobId, TestJobs.traceId(jobId));

        producer.sendJson(Topics.JOB_CREATED, jobId, TestJobs.created(jobId, 0));
        // Ingestion's insert waits for the uncommitted placeholder of the same key.
        db.awaitBlockedBehind(cancel);
        cancel.commit();

        JobExecution stored = db.awaitJob(jobId, j -> j.version() == 1);
        assertThat(stored.status()).isEqualTo(JobStatus.CANCELLED);
        assertThat(stored.jobType()).isEqualTo("SIMULATION");
        assertThat(awaitStatuses(jobId, 1).getFirst()
                .status()).isEqualTo(JobStatus.CANCELLED);
        commandsApplied();
        assertThat(recorder.records(Topics.RUN_JOB, jobId)).isEmpty();
    }

    @Test
    void keptCancelsOfJobsThatNeverCameExpire() {
        UUID old = UUID.randomUUID();
        UUID recent = UUID.randomUUID();
        UUID oldJob = delayedJob();
        commandsApplied(TestJobs.cancel(old), TestJobs.cancel(recent), TestJobs.cancel(oldJob));
        db.update("UPDATE job_executions SET created_at = now() - interval '8 days' WHERE job_id = ANY($1)",
                (Object) new UUID[] {old, oldJob});

        int expired = sweeper.sweep().await().atMost(Duration.ofSeconds(30));

        assertThat(expired).isGreaterThanOrEqualTo(1);
        assertThat(db.find(old)).isEmpty();
        assertThat(db.find(recent)).isPresent();
        assertThat(db.get(oldJob).status()).as("a job cancelled, not a kept cancel").isEqualTo(JobStatus.CANCELLED);
    }
}
