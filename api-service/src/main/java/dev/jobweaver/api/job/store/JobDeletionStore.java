package dev.jobweaver.api.job.store;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;

/**
 * Removes a deleted job from the API's database, with the reactive PostgreSQL client: its {@code jobs} row, any
 * {@code job_outbox} row, its attempts' history, its subscriptions with their deliveries (SPEC: deleting a job deletes
 * its subscriptions) and its dead letter, if it had one (the scheduler forgets the job, so there is nothing left to
 * requeue).
 * Its {@code idempotency_keys} rows stay until they expire (README, Deleting a job).
 */
@ApplicationScoped
public class JobDeletionStore {

    /**
     * One statement, so both deletes commit together. A leftover outbox row (its delete after the acknowledgement is
     * delayed, or failed) would otherwise let the sweeper publish the job's {@code job-created} again after the
     * scheduler forgot it, and the job would run once more. A row a sweep holds is waited for, then deleted. The
     * job's subscriptions go in the same statement, their deliveries with them (foreign key, on delete cascade).
     */
    private static final String DELETE = """
            WITH outbox AS (DELETE FROM job_outbox WHERE job_id = $1),
                 subscriptions AS (DELETE FROM subscriptions WHERE job_id = $1),
                 attempts AS (DELETE FROM job_attempts WHERE job_id = $1),
                 dead_letter AS (DELETE FROM dead_letters WHERE job_id = $1)
            DELETE FROM jobs WHERE id = $1
            """;

    private final Pool pool;

    public JobDeletionStore(Pool pool) {
        this.pool = pool;
    }

    /** Deletes the job's rows; true when its {@code jobs} row was there (false: already deleted). */
    public Uni<Boolean> delete(UUID jobId) {
        return pool.preparedQuery(DELETE).execute(Tuple.of(jobId)).map(rows -> rows.rowCount() > 0);
    }
}
