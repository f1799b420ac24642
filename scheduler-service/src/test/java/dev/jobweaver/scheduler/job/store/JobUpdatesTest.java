package dev.jobweaver.scheduler.job.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.scheduler.job.JobExecution;
import dev.jobweaver.scheduler.job.JobStateMachine;
import dev.jobweaver.scheduler.job.store.JobUpdates.OptimisticLockException;
import dev.jobweaver.scheduler.job.store.JobUpdates.Write;
import dev.jobweaver.scheduler.testing.KafkaAndDbTest;
import dev.jobweaver.scheduler.testing.TestJobs;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** {@code writeAll}: many rows in one statement, each only if still at its expected version, all or none. */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class JobUpdatesTest extends KafkaAndDbTest {

    @Test
    void everyRowIsWrittenWithEachOfItsColumnsNullsIncluded() {
        List<JobExecution> pending = pendingJobs(5);
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        List<Write> writes = new ArrayList<>();
        for (int i = 0; i < pending.size(); i++) {
            // Leases longer than a test run: these rows stay RUNNING, and must not expire during a later test class.
            JobExecution running = JobStateMachine.dispatch(pending.get(i), now, now.plusSeconds(3600 + i));
            // every other row carries an error text, the rest a null one
            JobExecution next = i % 2 == 0 ? running : withError(running, "error " + i);
            writes.add(new Write(next, pending.get(i).version()));
        }

        write(writes);

        for (Write w : writes) {
            JobExecution stored = db.get(w.next().jobId());
            assertThat(stored.status()).isEqualTo(JobStatus.RUNNING);
            assertThat(stored.attempt()).isEqualTo(1);
            assertThat(stored.version()).isEqualTo(w.next().version());
            assertThat(stored.leaseUntil()).isEqualTo(w.next().leaseUntil());
            assertThat(stored.dispatchedAt()).isEqualTo(now);
            assertThat(stored.lastError()).isEqualTo(w.next().lastError());
            assertThat(stored.finishedAt()).isNull();
        }
    }

    @Test
    void aRowAnotherWriterChangedFailsTheWriteAndNamesThatRowAndTheTransactionWritesNothing() {
        List<JobExecution> pending = pendingJobs(3);
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        JobExecution stale = pending.get(1);
        db.update("UPDATE job_executions SET version = version + 1 WHERE job_id = $1", stale.jobId());
        List<Write> writes = pending.stream()
                .map(j -> new Write(JobStateMachine.dispatch(j, now, now.plusSeconds(3600)), j.version()))
                .toList();

        assertThatThrownBy(() -> write(writes))
                .isInstanceOf(OptimisticLockException.class)
                .hasMessageContaining(stale.jobId().toString());
        for (JobExecution j : pending) {
            assertThat(db.get(j.jobId()).status()).as("job %s", j.jobId()).isEqualTo(JobStatus.PENDING);
        }
    }

    @Test
    void aSingleStaleRowFailsAsWell() {
        JobExecution job = pendingJobs(1).getFirst();
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);

        assertThatThrownBy(() -> write(List.of(new Write(JobStateMachine.dispatch(job, now, now), job.version() + 7))))
                .isInstanceOf(OptimisticLockException.class);
        assertThat(db.get(job.jobId()).status()).isEqualTo(JobStatus.PENDING);
    }

    private void write(List<Write> writes) {
        pool.withTransaction(tx -> updates.writeAll(tx, writes)).await().atMost(TIMEOUT);
    }

    /** PENDING rows due in an hour, so that no dispatch round takes them meanwhile. */
    private List<JobExecution> pendingJobs(int count) {
        return IntStream.range(0, count).mapToObj(i -> {
            UUID id = UUID.randomUUID();
            db.insertPending(id, TestJobs.LOG_INSTRUCTION, 1, 3600);
            return db.get(id);
        }).toList();
    }

    private static JobExecution withError(JobExecution j, String error) {
        return new JobExecution(j.jobId(), j.jobType(), j.traceId(), j.traceparent(), j.instruction(), j.status(),
                j.retryCount(), j.maxRetries(), j.attempt(), j.nextRunAt(), j.leaseUntil(), error, j.createdAt(),
                j.updatedAt(), j.dispatchedAt(), j.startedAt(), j.finishedAt(), j.version(), j.control(), j.result());
    }
}
