package dev.jobweaver.common.worker;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.batch.Columns;
import dev.jobweaver.common.event.WorkerHeartbeatEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code workers} table of a service's database: each worker as its newest heartbeat describes it. The API and the
 * scheduler each keep one, from {@code worker-heartbeats}; the statements are here, in one place.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>An older heartbeat never replaces a newer one ({@code sent_at} decides), so a redelivered or reordered record
 *       changes nothing.</li>
 *   <li>A worker gone for a day ({@link #FORGET_AFTER}) is removed by the next write.</li>
 * </ul>
 *
 * <h2>Threads</h2>
 * Non-blocking: every method answers a {@link Uni} on the pool's event loop.
 */
public final class WorkerStore {

    /** How long after it was last live a worker is kept: it is shown no more, but a late heartbeat still orders. */
    public static final String FORGET_AFTER = "1 day";

    private static final String APPLY = """
            WITH gone AS (DELETE FROM workers WHERE live_until < now() - interval '%s')
            INSERT INTO workers AS w (worker_id, queues, types, capacity, started_at, sent_at, live_until, assigned,
                                      defaults)
            SELECT u.worker_id, string_to_array(u.queues, ','), string_to_array(u.types, ','), u.capacity,
                   u.started_at, u.sent_at, u.live_until, string_to_array(u.assigned, ','), u.defaults::jsonb
            FROM unnest($1::text[], $2::text[], $3::text[], $4::int4[], $5::timestamptz[], $6::timestamptz[],
                        $7::timestamptz[], $8::text[], $9::text[])
                 AS u(worker_id, queues, types, capacity, started_at, sent_at, live_until, assigned, defaults)
            ON CONFLICT (worker_id) DO UPDATE SET queues = excluded.queues, types = excluded.types,
                capacity = excluded.capacity, started_at = excluded.started_at, sent_at = excluded.sent_at,
                live_until = excluded.live_until, assigned = excluded.assigned, defaults = excluded.defaults
            WHERE w.sent_at < excluded.sent_at""".formatted(FORGET_AFTER);

    private static final String LIVE = """
            SELECT worker_id, queues, types, capacity, started_at, sent_at, assigned, defaults::text AS defaults
            FROM workers WHERE live_until > $1
            ORDER BY worker_id""";

    /**
     * A live worker.
     *
     * @param partitions per queue, the partitions of its run topic the worker holds; null when its heartbeat did not
     *     say (an older worker)
     * @param defaults per type, the defaults its handler declares; empty for none
     */
    public record LiveWorker(String id, List<String> queues, List<String> types, int capacity, Instant startedAt,
                             Instant lastSeenAt, Map<String, List<Integer>> partitions,
                             Map<String, WorkerHeartbeatEvent.TypeDefaults> defaults) {

        public LiveWorker {
            defaults = defaults == null ? Map.of() : Map.copyOf(defaults);
        }

        /** A worker whose partitions are not known and whose types declare no defaults. */
        public LiveWorker(String id, List<String> queues, List<String> types, int capacity, Instant startedAt,
                          Instant lastSeenAt) {
            this(id, queues, types, capacity, startedAt, lastSeenAt, null, null);
        }

        /** A worker whose types declare no defaults. */
        public LiveWorker(String id, List<String> queues, List<String> types, int capacity, Instant startedAt,
                          Instant lastSeenAt, Map<String, List<Integer>> partitions) {
            this(id, queues, types, capacity, startedAt, lastSeenAt, partitions, null);
        }
    }

    /** Defaults hold names, numbers and lists only: a plain mapper reads and writes them. */
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<Map<String, WorkerHeartbeatEvent.TypeDefaults>> DEFAULTS =
            new TypeReference<>() { };

    private final Pool pool;

    public WorkerStore(Pool pool) {
        this.pool = pool;
    }

    /**
     * Stores the newest of {@code heartbeats} per worker, unless a newer one is stored already; the number of workers
     * whose row changed.
     */
    public Uni<Integer> apply(Collection<WorkerHeartbeatEvent> heartbeats) {
        List<WorkerHeartbeatEvent> newest = newestPerWorker(heartbeats);
        if (newest.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        // queues and types are names without commas (their rules), so a joined list is a safe array literal
        Tuple arrays = Tuple.tuple()
                .addValue(Columns.of(newest, WorkerHeartbeatEvent::workerId, String[]::new))
                .addValue(Columns.of(newest, h -> String.join(",", h.queues()), String[]::new))
                .addValue(Columns.of(newest, h -> String.join(",", h.types()), String[]::new))
                .addValue(Columns.of(newest, WorkerHeartbeatEvent::capacity, Integer[]::new))
                .addValue(Columns.of(newest, h -> utc(h.startedAt()), OffsetDateTime[]::new))
                .addValue(Columns.of(newest, h -> utc(h.sentAt()), OffsetDateTime[]::new))
                .addValue(Columns.of(newest, h -> utc(h.liveUntil()), OffsetDateTime[]::new))
                .addValue(Columns.of(newest, h -> assigned(h.partitions()), String[]::new))
                .addValue(Columns.of(newest, h -> defaultsJson(h.defaults()), String[]::new));
        return pool.preparedQuery(APPLY).execute(arrays).map(rows -> rows.rowCount());
    }

    /** The workers live at {@code at}, by id. */
    public Uni<List<LiveWorker>> live(Instant at) {
        return pool.preparedQuery(LIVE).execute(Tuple.of(utc(at))).map(rows -> {
            List<LiveWorker> live = new ArrayList<>();
            for (Row row : rows) {
                live.add(new LiveWorker(row.getString("worker_id"), List.of(row.getArrayOfStrings("queues")),
                        List.of(row.getArrayOfStrings("types")), row.getInteger("capacity"),
                        row.getOffsetDateTime("started_at").toInstant(),
                        row.getOffsetDateTime("sent_at").toInstant(), partitions(row.getArrayOfStrings("assigned")),
                        defaults(row.getString("defaults"))));
            }
            return live;
        });
    }

    /**
     * A heartbeat's partitions as stored: {@code queue:partition} entries joined by commas (a queue's name holds
     * neither), or null when the heartbeat did not say.
     */
    static String assigned(Map<String, List<Integer>> partitions) {
        if (partitions == null) {
            return null;
        }
        StringBuilder joined = new StringBuilder();
        partitions.forEach((queue, numbers) -> numbers.forEach(n -> {
            if (!joined.isEmpty()) {
                joined.append(',');
            }
            joined.append(queue).append(':').append(n);
        }));
        return joined.toString();
    }

    /** Stored partitions read back: null (not known) stays null, an empty array is a worker holding none. */
    static Map<String, List<Integer>> partitions(String[] assigned) {
        if (assigned == null) {
            return null;
        }
        Map<String, List<Integer>> partitions = new LinkedHashMap<>();
        for (String entry : assigned) {
            int colon = entry.lastIndexOf(':');
            partitions.computeIfAbsent(entry.substring(0, colon), q -> new ArrayList<>())
                    .add(Integer.parseInt(entry.substring(colon + 1)));
        }
        partitions.replaceAll((queue, numbers) -> List.copyOf(numbers));
        return Map.copyOf(partitions);
    }

    /** A heartbeat's defaults as stored (JSON), or null for none. */
    static String defaultsJson(Map<String, WorkerHeartbeatEvent.TypeDefaults> defaults) {
        if (defaults == null || defaults.isEmpty()) {
            return null;
        }
        try {
            return JSON.writeValueAsString(defaults);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("the defaults cannot be written as JSON: " + e.getMessage(), e);
        }
    }

    /** Stored defaults read back; none for null or for a value this build cannot read (a newer worker's). */
    static Map<String, WorkerHeartbeatEvent.TypeDefaults> defaults(String json) {
        if (json == null) {
            return Map.of();
        }
        try {
            return JSON.readValue(json, DEFAULTS);
        } catch (JsonProcessingException e) {
            return Map.of();
        }
    }

    /** One heartbeat per worker, its newest: one statement may not update a row twice. */
    static List<WorkerHeartbeatEvent> newestPerWorker(Collection<WorkerHeartbeatEvent> heartbeats) {
        Map<String, WorkerHeartbeatEvent> newest = new LinkedHashMap<>();
        for (WorkerHeartbeatEvent heartbeat : heartbeats) {
            newest.merge(heartbeat.workerId(), heartbeat,
                    (a, b) -> b.sentAt().isBefore(a.sentAt()) ? a : b);
        }
        return List.copyOf(newest.values());
    }

    private static OffsetDateTime utc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }
}
