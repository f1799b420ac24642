package dev.jobweaver.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import jakarta.enterprise.inject.spi.CDI;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every column of a service's busiest table has an explicit, small statistics target (each service's migration V3
 * says why): a column left at the default would bring back ANALYZE's 30,000-row sample, which stalls the platform on
 * two cores.
 *
 * <p>Each service runs it with a subclass that carries {@code @QuarkusTest} and {@link JobWeaverTest} and names its
 * table and the targets it pins.
 */
public abstract class StatisticsTargetContract {

    private final String table;
    private final Map<String, Integer> pinned;

    /**
     * @param table the table whose columns are checked
     * @param pinned columns with the exact target the migration gives them: 0 for free text, 10 for a status
     */
    protected StatisticsTargetContract(String table, Map<String, Integer> pinned) {
        this.table = table;
        this.pinned = pinned;
    }

    /** The service's connection pool: its one {@link Pool} bean, looked up when the test runs. */
    protected Pool pool() {
        return CDI.current().select(Pool.class).get();
    }

    @Test
    public void everyColumnHasASmallTargetAndTheFreeTextColumnsNone() {
        // attstattarget is NULL (PostgreSQL 17) or -1 (before) for a column left at the default target.
        Map<String, Integer> targets = new HashMap<>();
        for (Row row : pool().query("SELECT attname, attstattarget::int4 AS target FROM pg_attribute"
                        + " WHERE attrelid = '" + table + "'::regclass AND attnum > 0 AND NOT attisdropped")
                .execute().await().atMost(Duration.ofSeconds(30))) {
            Integer target = row.getInteger("target");
            targets.put(row.getString("attname"), target == null ? -1 : target);
        }

        assertThat(targets).isNotEmpty();
        assertThat(targets).allSatisfy((column, target) -> assertThat(target).as(column).isBetween(0, 10));
        assertThat(targets).containsAllEntriesOf(pinned);
    }
}
