package dev.jobweaver.common.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import java.util.HashMap;
import java.util.Map;

/**
 * The disk size of every table of a service's own schema, as two gauges by {@code table}:
 * {@code jobweaver_store_table_bytes} (the table: its rows, TOAST, free-space and visibility maps) and
 * {@code jobweaver_store_index_bytes} (all its indexes). Their sum is the table's {@code pg_total_relation_size}.
 * The API and the scheduler each make one and refresh it on a timer of their own; what the figures are for is the
 * alerts on a table that grows (docs/operations.md, "Store sizes").
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>Every ordinary table of the schema the pool's sessions use ({@code current_schema()}) has its two series,
 *       found by one catalog query per refresh: a table a later migration creates appears at the first refresh after
 *       it, and a table dropped or renamed loses its series at the next one. Flyway's history table is left out: it is
 *       the migrations' record, not the service's data, and never grows with load.</li>
 *   <li>A scrape reads the last refresh's figures and never queries: before the first refresh there is no series. A
 *       refresh that fails changes nothing, so the gauges keep their last figures until one succeeds.</li>
 *   <li>Sizes are read under a lock timeout of {@link #LOCK_TIMEOUT}: a table held by an exclusive lock (a migration,
 *       a {@code VACUUM FULL}) fails the refresh quickly instead of holding a pooled connection, and the share locks of
 *       the tables already read, behind it. Reading sizes takes only share locks, which no write waits for.</li>
 * </ul>
 *
 * <h2>Threads</h2>
 * {@link #refresh()} runs its query without blocking, on the calling event loop, and updates the figures where the
 * query completes; refreshes must not overlap (the services' timers skip while one runs), and {@link #update} is
 * synchronized regardless. Scrapes read the holders' volatile figures from any thread.
 */
public final class StoreSizes {

    /** {@code jobweaver_store_table_bytes}: the table without its indexes. */
    public static final String TABLE = "jobweaver.store.table.bytes";
    /** {@code jobweaver_store_index_bytes}: all the table's indexes. */
    public static final String INDEX = "jobweaver.store.index.bytes";
    /** Flyway's history table, which has no series. */
    public static final String FLYWAY_HISTORY = "flyway_schema_history";
    /** The longest the size query waits for a table's lock. */
    static final String LOCK_TIMEOUT = "2s";

    /**
     * Ordinary tables only ({@code relkind 'r'}; a partition of a partitioned table would be one, by its own name).
     * The size functions return NULL for a table dropped since the catalog was read; its row is skipped.
     */
    static final String SIZES = "SELECT c.relname, pg_table_size(c.oid) AS table_bytes,"
            + " pg_indexes_size(c.oid) AS index_bytes"
            + " FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
            + " WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname <> '" + FLYWAY_HISTORY + "'";

    private final MeterRegistry registry;
    private final Pool pool;
    /** By table name; touched by {@link #update} only. */
    private final Map<String, Holder> series = new HashMap<>();

    /** Registers nothing yet: each table's series come with the first refresh that sees it. */
    public StoreSizes(MeterRegistry registry, Pool pool) {
        this.registry = registry;
        this.pool = pool;
    }

    /** One table's figures, in bytes. */
    public record Sizes(long tableBytes, long indexBytes) {
    }

    /**
     * Reads every table's sizes with one query and sets the gauges: new tables get their series, tables gone lose
     * theirs. Fails as the query fails, changing nothing; the caller logs it.
     */
    public Uni<Void> refresh() {
        return read().invoke(this::update).replaceWithVoid();
    }

    /** Every table's sizes now, by name. */
    Uni<Map<String, Sizes>> read() {
        // SET LOCAL lasts until the transaction's end, so the pooled session goes back with its own lock timeout
        return pool.withTransaction(connection -> connection.query("SET LOCAL lock_timeout = '" + LOCK_TIMEOUT + "'")
                .execute()
                .chain(() -> connection.query(SIZES).execute())
                .map(rows -> {
                    Map<String, Sizes> sizes = new HashMap<>();
                    for (Row row : rows) {
                        Long table = row.getLong("table_bytes");
                        Long index = row.getLong("index_bytes");
                        if (table != null && index != null) {
                            sizes.put(row.getString("relname"), new Sizes(table, index));
                        }
                    }
                    return sizes;
                }));
    }

    /** Sets the gauges to {@code sizes}: the tables there are all the tables there are. */
    synchronized void update(Map<String, Sizes> sizes) {
        series.entrySet().removeIf(entry -> {
            if (sizes.containsKey(entry.getKey())) {
                return false;
            }
            registry.remove(entry.getValue().tableGauge);
            registry.remove(entry.getValue().indexGauge);
            return true;
        });
        sizes.forEach((table, figures) -> {
            Holder holder = series.computeIfAbsent(table, this::register);
            holder.tableBytes = figures.tableBytes();
            holder.indexBytes = figures.indexBytes();
        });
    }

    private Holder register(String table) {
        Holder holder = new Holder();
        Tags tags = Tags.of("table", table);
        holder.tableGauge = Gauge.builder(TABLE, holder, h -> h.tableBytes)
                .description("Disk size of the table without its indexes (rows, TOAST, free-space and visibility maps),"
                        + " read on a timer").baseUnit("bytes").tags(tags).strongReference(true).register(registry);
        holder.indexGauge = Gauge.builder(INDEX, holder, h -> h.indexBytes)
                .description("Disk size of all the table's indexes, read on a timer")
                .baseUnit("bytes").tags(tags).strongReference(true).register(registry);
        return holder;
    }

    /** One table's figures, read by its gauges at each scrape. */
    private static final class Holder {
        volatile double tableBytes;
        volatile double indexBytes;
        Gauge tableGauge;
        Gauge indexGauge;
    }
}
