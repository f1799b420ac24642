package dev.jobweaver.api.quarantine;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;

/**
 * The quarantined records the API keeps for review ({@code quarantined_records}), with the reactive PostgreSQL client;
 * every statement of the review is here. Methods run where they are called (a Vert.x event loop) and never block.
 *
 * <p>One row per origin: a copy is keyed by its origin topic, partition and offset and the service that set it aside
 * (a unique constraint), so Kafka's redelivery of a copy, or the same copy read again after a crash, stores nothing
 * new. Two services may set the same origin record aside (each consumes it in its own group), and each copy is kept.
 */
@ApplicationScoped
public class QuarantineStore {

    private static final String COLUMNS = """
            id, origin_topic, origin_partition, origin_offset, service, record_key, reason, detail, quarantined_at,
            size, state, state_changed_at, state_changed_by""";

    private static final String INSERT = """
            INSERT INTO quarantined_records (id, origin_topic, origin_partition, origin_offset, service, record_key,
                                             raw_key, reason, detail, quarantined_at, size, raw_value, raw_headers)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
            ON CONFLICT (origin_topic, origin_partition, origin_offset, service) DO NOTHING""";

    /** Newest first, the id breaking ties, as the index is ordered; each filter given must match. */
    private static final String PAGE = "SELECT " + COLUMNS + """
             FROM quarantined_records
            WHERE state = ANY($1::text[]) AND ($2::text IS NULL OR origin_topic = $2)
              AND ($3::text IS NULL OR reason = $3)
            ORDER BY quarantined_at DESC, id DESC
            LIMIT $4 OFFSET $5""";

    private static final String COUNT = """
            SELECT count(*) FROM quarantined_records
            WHERE state = ANY($1::text[]) AND ($2::text IS NULL OR origin_topic = $2)
              AND ($3::text IS NULL OR reason = $3)""";

    private static final String FIND = "SELECT " + COLUMNS + " FROM quarantined_records WHERE id = $1";

    private static final String LOCK_FOR_REPLAY = "SELECT " + COLUMNS + """
            , raw_key, raw_value, raw_headers FROM quarantined_records WHERE id = $1 FOR UPDATE""";

    private static final String MARK = "UPDATE quarantined_records SET state = $2, state_changed_at = $3,"
            + " state_changed_by = $4 WHERE id = $1 AND state = 'KEPT' RETURNING " + COLUMNS;

    private static final String COUNT_KEPT = "SELECT count(*) FROM quarantined_records WHERE state = 'KEPT'";

    /**
     * Which records a list covers.
     *
     * @param states one of these states (never empty)
     * @param topic  the origin topic, or null for any
     * @param reason the reason, or null for any
     */
    record Filter(List<QuarantineState> states, String topic, String reason) {
    }

    /** A record locked for its replay: what it is, and the raw key, value and headers to publish. */
    record Locked(StoredQuarantinedRecord record, byte[] key, byte[] value, byte[] headers) {
    }

    private final Pool pool;

    public QuarantineStore(Pool pool) {
        this.pool = pool;
    }

    /** Stores every copy not stored yet, in one transaction; how many were new. */
    Uni<Integer> store(List<QuarantinedCopy> copies) {
        List<Tuple> rows = new ArrayList<>(copies.size());
        for (QuarantinedCopy c : copies) {
            rows.add(Tuple.tuple().addUUID(c.id()).addString(c.topic()).addInteger(c.partition()).addLong(c.offset())
                    .addString(c.service()).addString(c.key()).addValue(buffer(c.rawKey())).addString(c.reason())
                    .addString(c.detail()).addOffsetDateTime(utc(c.quarantinedAt())).addInteger(c.size())
                    .addValue(buffer(c.value())).addValue(buffer(c.headers())));
        }
        return pool.withTransaction(connection -> connection.preparedQuery(INSERT).executeBatch(rows))
                .map(QuarantineStore::rowCount);
    }

    /** One page of the records {@code filter} covers, newest first. */
    Uni<List<StoredQuarantinedRecord>> page(Filter filter, int page, int size) {
        return pool.preparedQuery(PAGE).execute(filterTuple(filter).addInteger(size).addLong((long) page * size))
                .map(rows -> {
                    List<StoredQuarantinedRecord> found = new ArrayList<>();
                    rows.forEach(row -> found.add(stored(row)));
                    return found;
                });
    }

    /** How many records {@code filter} covers. */
    Uni<Long> count(Filter filter) {
        return pool.preparedQuery(COUNT).execute(filterTuple(filter)).map(rows -> rows.iterator().next().getLong(0));
    }

    /** The record {@code id}, or null. */
    Uni<StoredQuarantinedRecord> find(UUID id) {
        return pool.preparedQuery(FIND).execute(Tuple.of(id)).map(rows -> rows.size() == 0 ? null
                : stored(rows.iterator().next()));
    }

    /** How many records wait for review ({@code KEPT}). */
    Uni<Long> countKept() {
        return pool.query(COUNT_KEPT).execute().map(rows -> rows.iterator().next().getLong(0));
    }

    /**
     * Runs {@code review} in one transaction: the record {@code id} (null when there is none) locked until it ends.
     * {@code review} may publish before it marks the record, so that no record is marked without its publish.
     */
    <T> Uni<T> reviewLocked(UUID id, Function<Review, Uni<T>> review) {
        return pool.withTransaction(connection -> connection.preparedQuery(LOCK_FOR_REPLAY).execute(Tuple.of(id))
                .chain(rows -> {
                    Locked locked = null;
                    if (rows.size() > 0) {
                        Row row = rows.iterator().next();
                        locked = new Locked(stored(row), bytes(row.getBuffer("raw_key")),
                                bytes(row.getBuffer("raw_value")), bytes(row.getBuffer("raw_headers")));
                    }
                    return review.apply(new Review(connection, locked));
                }));
    }

    /** One review's transaction: the locked record (null when there is none), and its change of state. */
    final class Review {

        private final SqlConnection connection;
        private final Locked locked;

        private Review(SqlConnection connection, Locked locked) {
            this.connection = connection;
            this.locked = locked;
        }

        Locked locked() {
            return locked;
        }

        /** Marks the locked record {@code state} by {@code actor}, now; the record as it then is. */
        Uni<StoredQuarantinedRecord> mark(QuarantineState state, String actor) {
            return connection.preparedQuery(MARK).execute(Tuple.of(locked.record().id(), state.name(),
                            utc(Instant.now()), actor))
                    .map(rows -> stored(rows.iterator().next()));
        }
    }

    private static Tuple filterTuple(Filter filter) {
        return Tuple.of(filter.states().stream().map(Enum::name).toArray(String[]::new), filter.topic(),
                filter.reason());
    }

    private static StoredQuarantinedRecord stored(Row row) {
        return new StoredQuarantinedRecord(row.getUUID("id"), row.getString("origin_topic"),
                row.getInteger("origin_partition"), row.getLong("origin_offset"), row.getString("service"),
                row.getString("record_key"), row.getString("reason"), row.getString("detail"),
                instant(row.getOffsetDateTime("quarantined_at")), row.getInteger("size"),
                QuarantineState.valueOf(row.getString("state")), instant(row.getOffsetDateTime("state_changed_at")),
                row.getString("state_changed_by"));
    }

    private static int rowCount(RowSet<Row> first) {
        int count = 0;
        for (RowSet<Row> rows = first; rows != null; rows = rows.next()) {
            count += rows.rowCount();
        }
        return count;
    }

    /** The core Buffer a bytea parameter takes (the client refuses the Mutiny wrapper); null for none. */
    private static io.vertx.core.buffer.Buffer buffer(byte[] bytes) {
        return bytes == null ? null : io.vertx.core.buffer.Buffer.buffer(bytes);
    }

    private static byte[] bytes(Buffer buffer) {
        return buffer == null ? null : buffer.getBytes();
    }

    private static OffsetDateTime utc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }

    private static Instant instant(OffsetDateTime time) {
        return time == null ? null : time.toInstant();
    }
}
