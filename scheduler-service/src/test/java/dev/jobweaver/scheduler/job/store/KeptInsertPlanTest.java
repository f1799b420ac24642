package dev.jobweaver.scheduler.job.store;

import static dev.jobweaver.scheduler.job.store.QueryPlans.nodes;
import static dev.jobweaver.scheduler.job.store.QueryPlans.pages;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.Priority;
import dev.jobweaver.scheduler.job.store.JobInserts.NewJob;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Ingestion's insert runs with the generic plan its connection keeps ({@link JobSql#KEEP_PLAN} says why). A plan made
 * on a fresh install's empty table must still probe indexes once the table has grown, before any ANALYZE could make
 * PostgreSQL plan it again: no scan of the jobs for a key, the jobs due, the jobs running or a tenant's limit.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class KeptInsertPlanTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    /** Jobs waiting for a later start, and finished ones: pages of a scan over them would be in the hundreds. */
    private static final int OTHERS = 30_000;
    private static final int RUNNING = 200;
    private static final int NEW = 50;

    @Inject
    Pool pool;

    @Test
    void thePlanMadeOnAnEmptyTableStillProbesTheIndexes() {
        JsonNode plan = pool.withConnection(c -> c.begin().chain(tx -> c
                .query(QueryPlans.EMPTY_JOBS).execute()
                .chain(() -> c.query(JobSql.KEEP_PLAN).execute())
                .chain(() -> c.query("PREPARE ingest AS " + JobSql.INSERT).execute())
                .chain(() -> c.query("EXPLAIN (FORMAT JSON) EXECUTE ingest" + arguments(jobs(3))).execute())
                .chain(() -> grow(c))
                .chain(() -> c.query("EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) EXECUTE ingest" + arguments(jobs(NEW)))
                        .execute())
                .map(rows -> rows.iterator().next().getValue(0).toString())
                .call(() -> assertKeptPlans(c))
                .call(tx::rollback))).map(QueryPlans::plan).await().atMost(TIMEOUT);

        assertThat(nodes(plan, "Seq Scan")).as("sequential scans")
                .allSatisfy(scan -> assertThat(scan.path("Relation Name").asText()).isEqualTo("tenant_limits"));
        assertThat(nodes(plan, "Index Only Scan")).as("probes of the due and lease indexes").isNotEmpty();
        assertThat(plan.path("Actual Rows").asLong()).as("rows stored").isEqualTo(NEW);
        assertThat(pages(plan)).as("pages read and written by the insert").isLessThan(NEW * 10);
    }

    /** Both executions used the generic plan: none was planned for its own values. */
    private static Uni<?> assertKeptPlans(SqlConnection c) {
        return c.query("SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = 'ingest'")
                .execute().invoke(rows -> {
                    Row row = rows.iterator().next();
                    assertThat(row.getLong("generic_plans")).as("generic plans").isEqualTo(2);
                    assertThat(row.getLong("custom_plans")).as("custom plans").isZero();
                });
    }

    /** Jobs for later, finished jobs, a few running ones and none due, as after a first burst; no ANALYZE. */
    private static Uni<?> grow(SqlConnection c) {
        String insert = "INSERT INTO job_executions (job_id, job_type, instruction, job_status, max_retries, next_run_at,"
                + " lease_until, created_at, updated_at, priority, tenant) SELECT gen_random_uuid(), 'SIMULATION',"
                + " 'null', %s, 0, now() + make_interval(secs => 3600 + i), %s, now(), now(),"
                + " (ARRAY['HIGH','NORMAL','LOW'])[1 + i %% 3], 'plan-test' FROM generate_series(1, %d) i";
        return c.query(insert.formatted("CASE WHEN i % 2 = 0 THEN 'PENDING' ELSE 'COMPLETED' END", "NULL", OTHERS))
                .execute()
                .chain(() -> c.query(insert.formatted("'RUNNING'", "now() + interval '1 minute'", RUNNING))
                        .execute());
    }

    /** New jobs of a tenant without a limit, due now: every one of them may be dispatched. */
    private static List<NewJob> jobs(int n) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        JobControl control = new JobControl(Priority.NORMAL, null, null, null, "plan-test", null, null);
        return IntStream.range(0, n).mapToObj(i -> new NewJob(UUID.randomUUID(), "SIMULATION", "trace-" + i, null,
                "{\"steps\":[]}", 1, now, 60_000, control)).toList();
    }

    /**
     * The insert's arguments as production binds them ({@link JobInserts#insertArguments}), written as the literals
     * of an {@code EXECUTE}: with a maximum in flight, so that the plan counts the jobs running too.
     */
    private static String arguments(List<NewJob> jobs) {
        Tuple tuple = JobInserts.insertArguments(jobs, jobs.size(), 100_000, Set.of("LIMITED"), job -> false);
        List<String> values = new ArrayList<>();
        for (int i = 0; i < tuple.size(); i++) {
            values.add(literal(tuple.getValue(i)));
        }
        return values.stream().collect(Collectors.joining(", ", "(", ")"));
    }

    private static String literal(Object value) {
        if (value instanceof Object[] array) {
            return Arrays.stream(array).map(KeptInsertPlanTest::element)
                    .collect(Collectors.joining(", ", "ARRAY[", "]::" + sqlType(array) + "[]"));
        }
        return element(value);
    }

    private static String element(Object value) {
        if (value == null) {
            return "NULL";
        }
        if (value instanceof Number || value instanceof Boolean) {
            return value.toString();
        }
        return "'" + value.toString().replace("'", "''") + "'";
    }

    private static String sqlType(Object[] array) {
        return switch (array.getClass().getComponentType().getSimpleName()) {
            case "UUID" -> "uuid";
            case "String" -> "text";
            case "Integer" -> "int4";
            case "Long" -> "int8";
            case "Boolean" -> "bool";
            case "OffsetDateTime" -> "timestamptz";
            default -> throw new IllegalArgumentException("no SQL type for " + array.getClass());
        };
    }
}
