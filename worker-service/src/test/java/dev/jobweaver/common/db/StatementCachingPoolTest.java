package dev.jobweaver.common.db;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link StatementCachingPool} as a service's pool, on a real PostgreSQL: a statement run twice on one connection is
 * prepared once, the long ones too. It lives here, not in common, because common's tests have no Quarkus application.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_worker")
class StatementCachingPoolTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @Inject
    Pool pool;

    @Test
    void aStatementRunAgainOnAConnectionIsPreparedOnceEvenWhenLong() {
        // a distinct text per test run, longer than the client's default cache limit of 2,048 characters
        String marker = "cached_" + System.nanoTime();
        String longSql = "SELECT $1::int AS " + marker + " WHERE true" + " AND 1 = 1".repeat(300);
        String shortSql = "SELECT $1::int AS short_" + marker;
        assertThat(longSql.length()).isGreaterThan(2048).isLessThan(StatementCachingPool.SQL_LIMIT);

        List<Long> prepared = pool.withConnection(c -> c.preparedQuery(longSql).execute(Tuple.of(1))
                .chain(() -> c.preparedQuery(longSql).execute(Tuple.of(2)))
                .chain(() -> c.preparedQuery(shortSql).execute(Tuple.of(3)))
                .chain(() -> c.preparedQuery(shortSql).execute(Tuple.of(4)))
                .chain(() -> c.preparedQuery("SELECT count(*) FILTER (WHERE statement LIKE $1) AS long_ones,"
                        + " count(*) FILTER (WHERE statement LIKE $2) AS short_ones FROM pg_prepared_statements")
                        .execute(Tuple.of("%AS " + marker + " %", "%AS short_" + marker))))
                .map(rows -> {
                    Row row = rows.iterator().next();
                    List<Long> counts = new ArrayList<>();
                    counts.add(row.getLong("long_ones"));
                    counts.add(row.getLong("short_ones"));
                    return counts;
                })
                .await().atMost(TIMEOUT);

        assertThat(prepared).as("named prepared statements of this session: the long one, the short one")
                .containsExactly(1L, 1L);
    }
}
