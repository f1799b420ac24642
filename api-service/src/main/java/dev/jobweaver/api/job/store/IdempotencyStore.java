package dev.jobweaver.api.job.store;

import dev.jobweaver.common.job.JobControl;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Iterator;
import java.util.UUID;

/**
 * {@code idempotency_keys}: a submission with an {@code Idempotency-Key} stores its key, its job and the job's outbox
 * row in one statement, with the reactive PostgreSQL client like the unkeyed submissions.
 *
 * <p>Not a Hibernate Reactive (Panache) entity: the key must commit in the same transaction as the job and its outbox
 * row, which the submission path writes with the reactive SQL client; an entity would be written by another session on
 * another connection, hence in another transaction, and a crash between the two would leave a key without its job or a
 * job a retry could duplicate.
 */
@ApplicationScoped
public class IdempotencyStore {

    /**
     * Claims the key, then stores the job and its outbox row only if the claim succeeded: a new key, or one whose
     * lifetime is over (its row is taken over). A live key of the same tenant makes the statement store nothing. A
     * concurrent claim of the same key waits on the primary key until the first commits, then finds it live, so
     * concurrent duplicates make exactly one job. JSON is bound as text and cast: the client binds a String parameter
     * of type jsonb as a JSON string.
     */
    private static final String CLAIM_AND_INSERT = """
            WITH claimed AS (
                INSERT INTO idempotency_keys AS k (tenant, idem_key, fingerprint, job_id, trace_id, created_at)
                VALUES ($11, $17, $18, $1, $4, $6)
                ON CONFLICT (tenant, idem_key) DO UPDATE
                    SET fingerprint = excluded.fingerprint, job_id = excluded.job_id, trace_id = excluded.trace_id,
                        created_at = excluded.created_at
                    WHERE k.created_at <= $19
                RETURNING job_id
            ), new_jobs AS (
                INSERT INTO jobs (id, type, instruction, trace_id, status, max_retries, next_run_at, created_at,
                                  updated_at, priority, run_at, timeout_ms, retry_delays_ms, tenant, labels, queue)
                SELECT c.job_id, $2, $3::text::jsonb, $4, 'PENDING', $5,
                       coalesce($13::timestamptz, $6::timestamptz), $6, $6, $12, $13, $14, $15::text::jsonb, $11,
                       $16::text::jsonb, $20
                FROM claimed c
                RETURNING id, created_at
            )
            INSERT INTO job_outbox (job_id, event_id, traceparent, created_at, relay_instance, event_bytes)
            SELECT n.id, $7, $8, n.created_at, $9, $10
            FROM new_jobs n
            RETURNING job_id
            """;

    private static final String FIND = """
            SELECT fingerprint, job_id, trace_id FROM idempotency_keys
            WHERE tenant = $1 AND idem_key = $2 AND created_at > $3
            """;

    /** A batch of the oldest expired keys; ctid keeps the delete to the rows the subquery picked. */
    private static final String DELETE_EXPIRED = """
            DELETE FROM idempotency_keys WHERE ctid = ANY (ARRAY(
                SELECT ctid FROM idempotency_keys WHERE created_at <= $1 ORDER BY created_at LIMIT $2))
            """;

    private final Pool pool;

    public IdempotencyStore(Pool pool) {
        this.pool = pool;
    }

    /** A key as stored: the first submission's body fingerprint and its answer. */
    public record StoredKey(String fingerprint, UUID jobId, String traceId) {
    }

    /**
     * Stores {@code job} with its outbox row under {@code key} of {@code tenant}, unless the key is live (created
     * after {@code expiredAt}).
     *
     * @return whether the job was stored; false when the key is live, which {@link #find} then shows
     */
    public Uni<Boolean> insert(SubmissionStore.NewJob job, String relayInstance, String tenant, String key,
                               String fingerprint, Instant expiredAt) {
        JobControl control = JobControl.orDefaults(job.control());
        Tuple parameters = Tuple.tuple();
        parameters.addValue(job.id());
        parameters.addValue(job.type());
        parameters.addValue(job.instructionJson());
        parameters.addValue(job.traceId());
        parameters.addValue(job.maxRetries());
        parameters.addValue(SubmissionStore.utc(job.createdAt()));
        parameters.addValue(job.eventId());
        parameters.addValue(job.traceparent());
        parameters.addValue(relayInstance);
        parameters.addValue(job.eventBytes());
        parameters.addValue(tenant);
        parameters.addValue(control.priorityOrDefault().name());
        parameters.addValue(SubmissionStore.utc(control.runAt()));
        parameters.addValue(control.timeoutMs());
        parameters.addValue(JsonColumns.write(control.retryDelaysMs()));
        parameters.addValue(JsonColumns.write(control.labels()));
        parameters.addValue(key);
        parameters.addValue(fingerprint);
        parameters.addValue(SubmissionStore.utc(expiredAt));
        parameters.addValue(control.queueOrDefault());
        return pool.preparedQuery(CLAIM_AND_INSERT).execute(parameters).map(rows -> rows.rowCount() > 0);
    }

    /** The live key (created after {@code expiredAt}), or null. */
    public Uni<StoredKey> find(String tenant, String key, Instant expiredAt) {
        return pool.preparedQuery(FIND).execute(Tuple.of(tenant, key, SubmissionStore.utc(expiredAt))).map(rows -> {
            Iterator<Row> it = rows.iterator();
            if (!it.hasNext()) {
                return null;
            }
            Row row = it.next();
            return new StoredKey(row.getString("fingerprint"), row.getUUID("job_id"), row.getString("trace_id"));
        });
    }

    /** Deletes at most {@code limit} keys created at or before {@code expiredAt}; returns how many. */
    public Uni<Integer> deleteExpired(Instant expiredAt, int limit) {
        return pool.preparedQuery(DELETE_EXPIRED).execute(Tuple.of(SubmissionStore.utc(expiredAt), limit))
                .map(rows -> rows.rowCount());
    }
}
