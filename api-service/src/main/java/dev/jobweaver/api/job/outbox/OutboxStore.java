package dev.jobweaver.api.job.outbox;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.api.job.store.JobControlColumns;
import dev.jobweaver.api.job.store.JobOriginColumns;
import dev.jobweaver.api.job.store.JobReadStore;
import dev.jobweaver.api.job.store.SubmissionStore;
import dev.jobweaver.api.outbox.UnpublishedEvents;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.JobOrigin;
import dev.jobweaver.common.job.JobType;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/**
 * The outbox's side of {@code job_outbox}, with the reactive PostgreSQL client: the deletes of acknowledged rows, the
 * sweeper's claims and the backlog's measurement. The rows are inserted with their jobs, in the group's one statement
 * ({@code SubmissionStore}).
 */
@ApplicationScoped
class OutboxStore {

    /**
     * The oldest rows no relay can still be delivering, with what their event needs from the job: rows older than the
     * cutoff, and rows this instance's previous run stored ({@code relay_instance} is this instance's name, created
     * before it started). In order of acceptance. SKIP LOCKED: rows another instance's sweeper holds are skipped, so
     * two sweepers never publish the same row at the same time. Only the outbox rows are locked, never the jobs.
     */
    private static final String CLAIM = """
            SELECT o.job_id, o.event_id, o.traceparent, j.type, j.instruction::text AS instruction, j.max_retries,
                   j.trace_id, j.created_at, j.priority, j.run_at, j.timeout_ms,
                   j.retry_delays_ms::text AS retry_delays_ms, j.tenant, j.labels::text AS labels, j.queue,
                   %s
            FROM job_outbox o JOIN jobs j ON j.id = o.job_id
            WHERE o.created_at < $1 OR (o.relay_instance = $3 AND o.created_at < $4)
            ORDER BY o.created_at
            LIMIT $2
            FOR UPDATE OF o SKIP LOCKED
            """.formatted(JobOriginColumns.select("j."));

    private static final String BACKLOG = """
            SELECT count(*) AS jobs, coalesce(sum(event_bytes), 0) AS bytes, min(created_at) AS oldest FROM job_outbox
            """;

    private static final String DELETE = "DELETE FROM job_outbox WHERE job_id = ANY($1::uuid[])";

    /**
     * The relay's claim of rows it is about to publish again: those still there (not published and deleted meanwhile)
     * and not held by a sweep (SKIP LOCKED).
     */
    private static final String CLAIM_FOR_RETRY =
            "SELECT job_id FROM job_outbox WHERE job_id = ANY($1::uuid[]) FOR UPDATE SKIP LOCKED";

    private final Pool pool;

    OutboxStore(Pool pool) {
        this.pool = pool;
    }

    /**
     * An outbox row claimed by a sweep, with its job's fields.
     *
     * @param control the job's control, as its event carries it; null when the job has none beyond the defaults
     * @param origin the schedule tick or workflow node that made the job; null for a client's submission
     */
    record Claimed(UUID jobId, UUID eventId, String traceparent, JobType type, JsonNode instruction,
                          int maxRetries, String traceId, Instant createdAt, JobControl control, JobOrigin origin) {
    }

    /**
     * One sweep in one transaction: claims at most {@code limit} rows (created before {@code cutoff}, or left by this
     * instance's previous run), lets {@code publish} answer which of them Kafka acknowledged, deletes those and
     * commits. The transaction, and with it the row locks, lasts until {@code publish} answered.
     *
     * @param instance this instance's stable name, or null if it has none
     * @param startedAt when this instance started: its own rows created before are its previous run's
     * @return how many rows were claimed, and how many of them were published and deleted
     */
    Uni<UnpublishedEvents.Round> sweep(Instant cutoff, String instance, Instant startedAt, int limit,
                            Function<List<Claimed>, Uni<List<UUID>>> publish) {
        return pool.withTransaction(conn -> conn.preparedQuery(CLAIM)
                .execute(Tuple.of(SubmissionStore.utc(cutoff), limit, instance, SubmissionStore.utc(startedAt)))
                .chain(rows -> {
                    List<Claimed> claimed = new ArrayList<>();
                    for (Row row : rows) {
                        claimed.add(new Claimed(row.getUUID("job_id"), row.getUUID("event_id"),
                                row.getString("traceparent"), JobType.of(row.getString("type")),
                                JobReadStore.payload(row.getString("instruction")), row.getInteger("max_retries"),
                                row.getString("trace_id"), row.getOffsetDateTime("created_at").toInstant(),
                                JobControlColumns.control(row), origin(row)));
                    }
                    if (claimed.isEmpty()) {
                        return Uni.createFrom().item(new UnpublishedEvents.Round(0, 0));
                    }
                    return publish.apply(claimed).call(published -> deleteAcknowledged(conn, published))
                            .map(published -> new UnpublishedEvents.Round(claimed.size(), published.size()));
                }));
    }

    /**
     * The relay's retry of events Kafka refused, in one transaction, so that it never publishes a row while a sweep
     * does: claims the rows of {@code jobIds} that are still there and not held by a sweep, lets {@code publish} send
     * the events of the claimed ones and answer which Kafka acknowledged, deletes those and commits. Rows gone (a sweep
     * published them) or held (a sweep is publishing them) are not claimed, and their events must not be sent.
     *
     * @return the claimed jobIds, and which of them were acknowledged and deleted
     */
    Uni<Retried> retry(List<UUID> jobIds, Function<Set<UUID>, Uni<List<UUID>>> publish) {
        return pool.withTransaction(conn -> conn.preparedQuery(CLAIM_FOR_RETRY)
                .execute(Tuple.of(jobIds.toArray(UUID[]::new)))
                .chain(rows -> {
                    Set<UUID> claimed = new HashSet<>();
                    for (Row row : rows) {
                        claimed.add(row.getUUID("job_id"));
                    }
                    if (claimed.isEmpty()) {
                        return Uni.createFrom().item(new Retried(Set.of(), List.of()));
                    }
                    return publish.apply(claimed).call(published -> deleteAcknowledged(conn, published))
                            .map(published -> new Retried(claimed, published));
                }));
    }

    /** Deletes, within a claim's transaction, the rows of the claimed jobs Kafka acknowledged; none, no statement. */
    private static Uni<Void> deleteAcknowledged(SqlConnection conn, List<UUID> acknowledged) {
        return acknowledged.isEmpty() ? Uni.createFrom().voidItem()
                : conn.preparedQuery(DELETE).execute(Tuple.of(acknowledged.toArray(UUID[]::new))).replaceWithVoid();
    }

    /** What a {@link #retry} claimed, and which of those Kafka acknowledged (their rows deleted). */
    record Retried(Set<UUID> claimed, List<UUID> acknowledged) {
    }

    /** Deletes the rows of jobs whose events Kafka acknowledged; returns how many were there. */
    Uni<Integer> delete(List<UUID> jobIds) {
        return pool.preparedQuery(DELETE).execute(Tuple.of(jobIds.toArray(UUID[]::new))).map(rows -> rows.rowCount());
    }

    /** The origin of a claimed row's job; null for a client's submission. */
    private static JobOrigin origin(Row row) {
        return JobOriginColumns.origin(row);
    }

    /**
     * The unpublished outbox now: rows not deleted yet (waiting for Kafka, or published within the delete delay), the
     * bytes of their events, and when the oldest was stored (null when empty).
     */
    record Backlog(long jobs, long bytes, Instant oldest) {

        static final Backlog EMPTY = new Backlog(0, 0, null);
    }

    /** Measures the {@link Backlog}. */
    Uni<Backlog> backlog() {
        return pool.query(BACKLOG).execute().map(rows -> {
            Row row = rows.iterator().next();
            var oldest = row.getOffsetDateTime("oldest");
            return new Backlog(row.getLong("jobs"), row.getLong("bytes"), oldest == null ? null : oldest.toInstant());
        });
    }
}
