package dev.jobweaver.scheduler.job.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.local.testing.LocalStackResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every column of {@code job_executions} has an explicit, small statistics target (migration V3 says why): a column left at the
 * default would bring back ANALYZE's 30,000-row sample, which stalls the platform on two cores.
 */
@QuarkusTest
@QuarkusTestResource(value = LocalStackResource.class,
        initArgs = @ResourceArg(name = LocalStackResource.DATABASE, value = "jobweaver_scheduler"))
class StatisticsTargetTest {

    @Inject
    Pool pool;

    @Test
    void everyColumnHasASmallTargetAndTheFreeTextColumnsNone() {
        // attstattarget is NULL (PostgreSQL 17) or -1 (before) for a column left at the default target.
        Map<String, Integer> targets = new HashMap<>();
        for (Row row : pool.query("SELECT attname, attstattarget::int4 AS target FROM pg_attribute"
                        + " WHERE attrelid = 'job_executions'::regclass AND attnum > 0 AND NOT attisdropped")
                .execute().await().atMost(Duration.ofSeconds(30))) {
            Integer target = row.getInteger("target");
            targets.put(row.getString("attname"), target == null ? -1 : target);
        }

        assertThat(targets).isNotEmpty();
        assertThat(targets).allSatisfy((column, target) -> assertThat(target).as(column).isBetween(0, 10));
        assertThat(targets).containsAllEntriesOf(Map.of("instruction", 0, "traceparent", 0, "last_error", 0, "job_status", 10));
    }
}
