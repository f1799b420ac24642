package dev.jobweaver.api.job.persistence;

import dev.jobweaver.common.job.JobPayload;
import dev.jobweaver.common.job.JobType;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;

/** The outbox sweeper's side of {@code job_outbox}, with the reactive PostgreSQL client. */
@ApplicationScoped
public class OutboxStore {

    /**
     * The oldest rows, with what their event needs from the job. SKIP LOCKED: rows another replica's sweeper (or a live
     * request's compensation) holds are skipped, so two sweepers never publish the same row at the same time. Only
     * the outbox rows are locked, never the jobs.
     */
    private static final String CLAIM = """
            SELECT o.job_id, o.event_id, o.traceparent, j.type, j.instruction::text AS instruction, j.max_retries,
                   j.trace_id, j.created_at
            FROM job_outbox o JOIN jobs j ON j.id = o.job_id
            WHERE o.created_at < $1
            ORDER BY o.created_at
            LIMIT $2
            FOR UPDATE OF o SKIP LOCKED
            """;

    private static final String DELETE = "DELETE FROM job_outbox WHERE job_id = ANY($1::uuid[])";

    private final Pool pool;

    public OutboxStore(Pool pool) {
        this.pool = pool;
    }

    /** An outbox row claimed by a sweep, with its job's fields. */
    public record Claimed(UUID jobId, UUID eventId, String traceparent, JobType type, JobPayload instruction,
                          int maxRetries, String traceId, Instant createdAt) {
    }

    /**
     * One sweep in one transaction: claims at most {@code limit} rows created before {@code cutoff}, lets
     * {@code publish} answer which of them Kafka acknowledged, deletes those and commits. The transaction, and with it
     * the row locks, lasts until {@code publish} answered, so a late compensation of a live request (a plain DELETE)
     * waits for it and then sees whether the row was published.
     *
     * @return how many rows were published and deleted
     */
    public Uni<Integer> sweep(Instant cutoff, int limit, Function<List<Claimed>, Uni<List<UUID>>> publish) {
        return pool.withTransaction(conn -> conn.preparedQuery(CLAIM)
                .execute(Tuple.of(SubmissionStore.utc(cutoff), limit))
                .chain(rows -> {
                    List<Claimed> claimed = new ArrayList<>();
                    for (Row row : rows) {
                        claimed.add(new Claimed(row.getUUID("job_id"), row.getUUID("event_id"),
                                row.getString("traceparent"), JobType.valueOf(row.getString("type")),
                                JobReadStore.payload(row.getString("instruction")), row.getInteger("max_retries"),
                                row.getString("trace_id"), row.getOffsetDateTime("created_at").toInstant()));
                    }
                    if (claimed.isEmpty()) {
                        return Uni.createFrom().item(0);
                    }
                    return publish.apply(claimed).chain(published -> published.isEmpty()
                            ? Uni.createFrom().item(0)
                            : conn.preparedQuery(DELETE).execute(Tuple.of(published.toArray(UUID[]::new)))
                                    .map(deleted -> published.size()));
                }));
    }

    /** Rows waiting for Kafka. */
    public Uni<Long> depth() {
        return pool.query("SELECT count(*) FROM job_outbox").execute()
                .map(rows -> rows.iterator().next().getLong(0));
    }
}
