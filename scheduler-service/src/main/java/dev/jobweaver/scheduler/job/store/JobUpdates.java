package dev.jobweaver.scheduler.job.store;

import static dev.jobweaver.scheduler.job.store.JobRows.*;
import static dev.jobweaver.scheduler.job.store.JobSql.*;

import dev.jobweaver.common.batch.Columns;
import dev.jobweaver.scheduler.job.JobExecution;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * Writes the new states of locked jobs, each only if its row is still at the version it was read at (optimistic), and
 * deletes finished ones.
 *
 * <p>Every method runs in the caller's transaction; a statement over many rows is one round trip. Nothing here blocks
 * a thread.
 */
@ApplicationScoped
public class JobUpdates {

    /**
     * Writes {@code next} over the row if it is still at {@code expectedVersion}.
     *
     * @throws OptimisticLockException (in the Uni) if another writer changed the row in between
     */
    public Uni<Void> update(SqlConnection tx, JobExecution next, long expectedVersion) {
        return tx.preparedQuery(UPDATE).execute(updateTuple(next, expectedVersion)).map(rows -> {
            if (rows.rowCount() != 1) {
                throw new OptimisticLockException(next.jobId(), expectedVersion);
            }
            return null;
        });
    }

    /** Writes every row of {@code next} in one batch; each must still be at its version minus one. */
    public Uni<Void> updateAll(SqlConnection tx, List<JobExecution> next) {
        return writeAll(tx, next.stream().map(j -> new Write(j, j.version() - 1)).toList());
    }

    /** A new state of a row and the version the row must still have for the write to apply. */
    public record Write(JobExecution next, long expectedVersion) {
    }

    /**
     * Writes every row in one statement (one round trip, one execution, whatever the number of rows).
     *
     * @throws OptimisticLockException (in the Uni) if any row was changed by another writer in between (the first
     *                                 such row in {@code writes}' order); the caller's transaction then rolls back as
     *                                 a whole
     */
    public Uni<Void> writeAll(SqlConnection tx, List<Write> writes) {
        if (writes.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        List<JobExecution> next = writes.stream().map(Write::next).toList();
        Tuple arrays = Tuple.from(new Object[] {
                Columns.of(next, JobExecution::jobId, UUID[]::new),
                Columns.of(next, j -> j.status().name(), String[]::new),
                Columns.of(next, JobExecution::retryCount, Integer[]::new),
                Columns.of(next, JobExecution::attempt, Integer[]::new),
                Columns.of(next, j -> odt(j.nextRunAt()), OffsetDateTime[]::new),
                Columns.of(next, j -> odt(j.leaseUntil()), OffsetDateTime[]::new),
                Columns.of(next, JobExecution::lastError, String[]::new),
                Columns.of(next, j -> odt(j.updatedAt()), OffsetDateTime[]::new),
                Columns.of(next, j -> odt(j.dispatchedAt()), OffsetDateTime[]::new),
                Columns.of(next, j -> odt(j.startedAt()), OffsetDateTime[]::new),
                Columns.of(next, j -> odt(j.finishedAt()), OffsetDateTime[]::new),
                Columns.of(next, JobExecution::version, Long[]::new),
                Columns.of(writes, Write::expectedVersion, Long[]::new),
                Columns.of(next, j -> json(j.result()), String[]::new)});
        return tx.preparedQuery(UPDATE_MANY).execute(arrays).map(rows -> {
            if (rows.rowCount() == writes.size()) {
                return null;
            }
            Set<UUID> written = new HashSet<>();
            for (Row row : rows) {
                written.add(row.getUUID("job_id"));
            }
            for (Write w : writes) {
                if (!written.remove(w.next().jobId())) {
                    throw new OptimisticLockException(w.next().jobId(), w.expectedVersion());
                }
            }
            return null;
        });
    }

    /**
     * What a requeue changes of a row besides its transition.
     *
     * @param instruction the new payload as JSON, or null to keep the stored one
     * @param version     the version the row was written at by this transaction
     */
    public record Requeued(UUID jobId, int maxRetries, String instruction, long version) {
    }

    /**
     * Writes the retries and new payloads of requeued rows, in one statement; each row must have been written at its
     * {@code version} by {@code tx} (so it is locked).
     *
     * @throws OptimisticLockException (in the Uni) if a row is not at its version
     */
    public Uni<Void> writeRequeued(SqlConnection tx, List<Requeued> requeued) {
        if (requeued.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        Tuple arrays = Tuple.from(new Object[] {
                Columns.of(requeued, Requeued::jobId, UUID[]::new),
                Columns.of(requeued, Requeued::maxRetries, Integer[]::new),
                Columns.of(requeued, Requeued::instruction, String[]::new),
                Columns.of(requeued, Requeued::version, Long[]::new)});
        return tx.preparedQuery(REQUEUE_MANY).execute(arrays).map(rows -> {
            if (rows.rowCount() != requeued.size()) {
                throw new OptimisticLockException(requeued.getFirst().jobId(), requeued.getFirst().version());
            }
            return null;
        });
    }

    /** Deletes those of {@code jobIds} that have finished (placeholders included); the number of rows deleted. */
    public Uni<Integer> deleteFinished(SqlConnection tx, Collection<UUID> jobIds) {
        if (jobIds.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        return tx.preparedQuery(DELETE_FINISHED).execute(Tuple.of(jobIds.toArray(UUID[]::new)))
                .map(RowSet::rowCount);
    }

    private static Tuple updateTuple(JobExecution j, long expectedVersion) {
        return Tuple.from(new Object[] {j.jobId(), j.status().name(), j.retryCount(), j.attempt(), odt(j.nextRunAt()),
                odt(j.leaseUntil()), j.lastError(), odt(j.updatedAt()), odt(j.dispatchedAt()), odt(j.startedAt()),
                odt(j.finishedAt()), j.version(), expectedVersion, json(j.result())});
    }

    /** Another writer changed the row since it was read. */
    public static final class OptimisticLockException extends RuntimeException {

        public OptimisticLockException(UUID jobId, long expectedVersion) {
            super("job " + jobId + " is no longer at version " + expectedVersion);
        }
    }
}
