package dev.jobweaver.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.common.metrics.StoreSizes;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.restassured.RestAssured;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.sqlclient.DatabaseException;
import jakarta.enterprise.inject.spi.CDI;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A service's table and index size gauges ({@link StoreSizes}) cover every table of its schema, with the figures
 * PostgreSQL gives, and follow the tables: one created after the start gets its series, grows with its rows, and loses
 * its series when dropped, with no change to the service; and a table under an exclusive lock fails a refresh within
 * its lock timeout rather than holding the connection. The service's test profile refreshes them every second.
 *
 * <p>Each service runs it with a subclass that carries {@code @QuarkusTest} and {@link JobWeaverTest} and names a
 * table of its migrations.
 */
public abstract class StoreSizesContract {

    /** PostgreSQL's page: every relation's size is a whole number of them. */
    private static final long PAGE = 8192;
    private static final Duration REFRESHED = Duration.ofSeconds(30);
    private static final Duration QUERY = Duration.ofSeconds(30);

    private final String migratedTable;

    /** @param migratedTable a table the service's migrations create, with a primary key */
    protected StoreSizesContract(String migratedTable) {
        this.migratedTable = migratedTable;
    }

    /** The service's connection pool: its one {@link Pool} bean, looked up when the test runs. */
    protected Pool pool() {
        return CDI.current().select(Pool.class).get();
    }

    /** The service's meter registry, looked up when the test runs. */
    protected MeterRegistry registry() {
        return CDI.current().select(MeterRegistry.class).get();
    }

    @Test
    public void everyTableOfTheSchemaHasItsSizesAsPostgreSqlGivesThem() {
        Set<String> tables = new TreeSet<>();
        for (Row row : pool().query("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
                .execute().await().atMost(QUERY)) {
            tables.add(row.getString(0));
        }
        assertThat(tables).contains(migratedTable, StoreSizes.FLYWAY_HISTORY);
        tables.remove(StoreSizes.FLYWAY_HISTORY);

        await().atMost(REFRESHED).untilAsserted(() -> assertThat(figures(StoreSizes.TABLE).keySet())
                .containsAll(tables).doesNotContain(StoreSizes.FLYWAY_HISTORY));
        for (String name : new String[] {StoreSizes.TABLE, StoreSizes.INDEX}) {
            assertThat(figures(name)).as(name).allSatisfy((table, bytes) ->
                    assertThat(bytes % PAGE).as("%s of %s: %s bytes, whole pages", name, table, bytes).isZero());
            assertThat(figures(name).values()).as(name).allSatisfy(bytes -> assertThat(bytes).isNotNegative());
        }
        // a primary key's index has its metapage even on an empty table
        assertThat(figures(StoreSizes.INDEX).get(migratedTable)).isGreaterThanOrEqualTo(PAGE);
        // the figures are the ones the catalog gives (one refresh apart, so the table may have grown meanwhile)
        long actual = single("SELECT pg_indexes_size('" + migratedTable + "'::regclass)");
        await().atMost(REFRESHED).untilAsserted(() ->
                assertThat(figures(StoreSizes.INDEX).get(migratedTable)).isGreaterThanOrEqualTo(actual));

        String scrape = RestAssured.get("/q/metrics").then().statusCode(200).extract().asString();
        assertThat(scrape).contains("jobweaver_store_table_bytes{table=\"" + migratedTable + "\"}",
                "jobweaver_store_index_bytes{table=\"" + migratedTable + "\"}");
        assertThat(scrape).doesNotContain("table=\"" + StoreSizes.FLYWAY_HISTORY + "\"");
    }

    @Test
    public void aTableCreatedLaterGetsItsSeriesGrowsWithItsRowsAndGoesWhenDropped() {
        String table = "store_sizes_probe_" + UUID.randomUUID().toString().replace("-", "");
        execute("CREATE TABLE " + table + " (id bigint PRIMARY KEY, body text NOT NULL)");
        try {
            await().atMost(REFRESHED).until(() -> figures(StoreSizes.TABLE).containsKey(table));
            long emptyTable = figures(StoreSizes.TABLE).get(table);
            long emptyIndex = figures(StoreSizes.INDEX).get(table);
            // no page of rows yet: only the metapage of its TOAST table's index, and of its primary key
            assertThat(emptyTable).isLessThanOrEqualTo(PAGE);
            assertThat(emptyIndex).isEqualTo(PAGE);

            // about 500 KB of rows: many pages of the table and of its primary key
            execute("INSERT INTO " + table + " SELECT g, repeat('x', 200) FROM generate_series(1, 2000) AS g");

            // nothing else writes the table: the figures reach exactly what the catalog says now (read at each try,
            // as autovacuum may add the table's free-space and visibility maps meanwhile)
            await().atMost(REFRESHED).untilAsserted(() -> {
                assertThat(figures(StoreSizes.TABLE).get(table)).isEqualTo(single("SELECT pg_table_size('" + table
                        + "'::regclass)"));
                assertThat(figures(StoreSizes.INDEX).get(table)).isEqualTo(single("SELECT pg_indexes_size('" + table
                        + "'::regclass)"));
            });
            assertThat(figures(StoreSizes.TABLE).get(table)).isGreaterThanOrEqualTo(emptyTable + 400_000L);
            assertThat(figures(StoreSizes.INDEX).get(table)).isGreaterThan(emptyIndex);
            assertThat(RestAssured.get("/q/metrics").then().statusCode(200).extract().asString())
                    .contains("jobweaver_store_table_bytes{table=\"" + table + "\"}");
        } finally {
            execute("DROP TABLE IF EXISTS " + table);
        }
        await().atMost(REFRESHED).untilAsserted(() -> {
            assertThat(figures(StoreSizes.TABLE)).doesNotContainKey(table);
            assertThat(figures(StoreSizes.INDEX)).doesNotContainKey(table);
        });
    }

    @Test
    public void aTableLockedExclusivelyFailsTheRefreshQuicklyInsteadOfHoldingItsConnection() {
        String table = "store_sizes_locked_" + UUID.randomUUID().toString().replace("-", "");
        execute("CREATE TABLE " + table + " (id bigint PRIMARY KEY)");
        SqlConnection holder = pool().getConnection().await().atMost(QUERY);
        try {
            // a migration's hold on a table: the size functions' share lock waits for it
            holder.query("BEGIN").execute().await().atMost(QUERY);
            holder.query("LOCK TABLE " + table + " IN ACCESS EXCLUSIVE MODE").execute().await().atMost(QUERY);
            StoreSizes sizes = new StoreSizes(new SimpleMeterRegistry(), pool());

            long start = System.nanoTime();
            Throwable failure = sizes.refresh().onItem().<Throwable>transform(ignored -> null)
                    .onFailure().recoverWithItem(e -> e).await().atMost(QUERY);
            Duration took = Duration.ofNanos(System.nanoTime() - start);

            // SQL state 55P03: lock_not_available, the lock timeout
            assertThat(failure).isInstanceOf(DatabaseException.class);
            assertThat(((DatabaseException) failure).getSqlState()).isEqualTo("55P03");
            assertThat(took).isLessThan(Duration.ofSeconds(10));
        } finally {
            holder.query("ROLLBACK").execute().await().atMost(QUERY);
            holder.close().await().atMost(QUERY);
            execute("DROP TABLE IF EXISTS " + table);
        }
    }

    /** The gauge {@code name}'s figure of every table that has one. */
    private Map<String, Long> figures(String name) {
        Map<String, Long> figures = new TreeMap<>();
        for (Gauge gauge : registry().find(name).gauges()) {
            figures.put(gauge.getId().getTag("table"), (long) gauge.value());
        }
        return figures;
    }

    private void execute(String sql) {
        pool().query(sql).execute().await().atMost(QUERY);
    }

    private long single(String sql) {
        return pool().query(sql).execute().await().atMost(QUERY).iterator().next().getLong(0);
    }
}
