package dev.jobweaver.scheduler.job.store;

import static dev.jobweaver.scheduler.job.store.QueryPlans.nodes;
import static dev.jobweaver.scheduler.job.store.QueryPlans.pages;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.common.job.Priority;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The plain claim has no bound values, so a connection plans it once and keeps the plan (JobSql.claimDue says why).
 * A plan kept from a fresh install's empty table must still read the head of the due index once the table has grown,
 * before any ANALYZE could make PostgreSQL plan it again.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class KeptClaimPlanTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    /** Jobs waiting for a later start, and finished ones: pages of a scan over them would be in the hundreds. */
    private static final int OTHERS = 30_000;
    private static final int DUE = 20;

    @Inject
    Pool pool;

    @Test
    void thePlanMadeOnAnEmptyTableStillReadsTheHeadOfTheDueIndex() {
        String claim = JobSql.claimDue(500, 0, List.of(Priority.HIGH, Priority.NORMAL, Priority.LOW));
        assertThat(claim).as("bound values in the claim").doesNotContain("$");

        JsonNode plan = pool.withConnection(c -> c.begin().chain(tx -> c
                .query(QueryPlans.EMPTY_JOBS).execute()
                .chain(() -> c.query("PREPARE claim AS " + claim).execute())
                .chain(() -> c.query("EXPLAIN (FORMAT JSON) EXECUTE claim").execute())
                .chain(() -> grow(c))
                .chain(() -> c.query("EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) EXECUTE claim").execute())
                .map(rows -> rows.iterator().next().getValue(0).toString())
                .call(tx::rollback))).map(QueryPlans::plan).await().atMost(TIMEOUT);

        assertThat(nodes(plan, "Seq Scan")).as("sequential scans")
                .allSatisfy(scan -> assertThat(scan.path("Relation Name").asText()).isEqualTo("tenant_limits"));
        assertThat(nodes(plan, "Index Scan")).isNotEmpty();
        assertThat(plan.path("Actual Rows").asLong()).as("rows claimed").isEqualTo(DUE);
        assertThat(pages(plan)).as("pages read by the claim").isLessThan(150);
    }

    /** Jobs for later, finished jobs and a few due ones, as after a first burst; no ANALYZE. */
    private Uni<?> grow(SqlConnection c) {
        String insert = "INSERT INTO job_executions (job_id, job_type, instruction, job_status, max_retries, next_run_at,"
                + " created_at, updated_at, priority, tenant) SELECT gen_random_uuid(), 'SIMULATION', 'null', %s, 0,"
                + " %s, now(), now(), (ARRAY['HIGH','NORMAL','LOW'])[1 + i %% 3], 'plan-test'"
                + " FROM generate_series(1, %d) i";
        return c.query(insert.formatted("CASE WHEN i % 2 = 0 THEN 'PENDING' ELSE 'COMPLETED' END",
                        "now() + make_interval(secs => 3600 + i)", OTHERS)).execute()
                .chain(() -> c.query(insert.formatted("'PENDING'", "now() - make_interval(secs => i)", DUE))
                        .execute());
    }
}
