package dev.jobweaver.scheduler.job.store;

import static dev.jobweaver.scheduler.job.store.QueryPlans.nodes;
import static dev.jobweaver.scheduler.job.store.QueryPlans.pages;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.common.job.Priority;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The dispatch claim, the timer's next-due probe and the pending-depth, backlog and queue gauges read the head of the
 * index on (priority, next_run_at), whatever the number of jobs waiting for a later start: no sequential scan, no sort
 * of the backlog, a few pages read.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class DueIndexPlanTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final String TENANT = "plan-test";
    private static final String INDEX = "idx_job_executions_due_by_priority_tenant";
    /** Jobs waiting for a later start: pages of a scan over them would be in the hundreds. */
    private static final int LATER = 30_000;
    private static final int DUE = 20;

    @Inject
    Pool pool;

    @BeforeEach
    void fillTheTable() {
        // Future jobs on the three levels, and a few due ones: as after a burst of delayed submissions.
        execute("INSERT INTO job_executions (job_id, job_type, instruction, job_status, max_retries, next_run_at,"
                + " created_at, updated_at, priority, tenant)"
                + " SELECT gen_random_uuid(), 'SIMULATION', '{\"steps\":[{\"action\":\"LOG\",\"message\":\"x\"}]}',"
                + " 'PENDING', 0, now() + make_interval(secs => 3600 + i), now(), now(),"
                + " (ARRAY['HIGH','NORMAL','LOW'])[1 + i % 3], $1 FROM generate_series(1, " + LATER + ") i", TENANT);
        execute("INSERT INTO job_executions (job_id, job_type, instruction, job_status, max_retries, next_run_at,"
                + " created_at, updated_at, priority, tenant)"
                + " SELECT gen_random_uuid(), 'SIMULATION', '{\"steps\":[{\"action\":\"LOG\",\"message\":\"x\"}]}',"
                + " 'PENDING', 0, now() - make_interval(secs => 365 * 86400 + i), now(), now(),"
                + " (ARRAY['HIGH','NORMAL','LOW'])[1 + i % 3], $1 FROM generate_series(1, " + DUE + ") i", TENANT);
        execute("ANALYZE job_executions");
    }

    @AfterEach
    void emptyIt() {
        execute("DELETE FROM job_executions WHERE tenant = $1", TENANT);
        execute("VACUUM job_executions");
    }

    @Test
    void theClaimReadsTheHeadOfEachLevel() throws Exception {
        // No in-flight limit ($2 = 0): the count of RUNNING jobs is another index's concern.
        JsonNode plan = explain(JobSql.claimDue(500, 0, List.of(Priority.LOW, Priority.HIGH, Priority.NORMAL)),
                Tuple.tuple());

        // The probe for limits kept in the database reads tenant_limits (a row per tenant that has had a limit) and
        // the head of the empty partial index of waiting workflow-limited jobs; never job_executions itself.
        assertThat(nodes(plan, "Seq Scan")).as("sequential scans")
                .allSatisfy(scan -> assertThat(scan.path("Relation Name").asText()).isEqualTo("tenant_limits"));
        List<JsonNode> scans = nodes(plan, "Index Scan");
        assertThat(scans).isNotEmpty().allSatisfy(scan -> assertThat(scan.path("Index Name").asText())
                .isIn(INDEX, "idx_job_executions_workflow_limited"));
        assertThat(scans).anySatisfy(scan -> assertThat(scan.path("Index Name").asText()).isEqualTo(INDEX));
        // The claim's own sort orders the rows it took, never the backlog.
        assertThat(nodes(plan, "Sort")).allSatisfy(sort -> assertThat(sort.path("Actual Rows").asLong())
                .isLessThanOrEqualTo(500));
        assertThat(pages(plan)).as("pages read by the claim").isLessThan(150);
    }

    @Test
    void theNextDueProbeReadsAFewPages() throws Exception {
        JsonNode plan = explain("SELECT " + JobSql.NEXT_LATER, Tuple.tuple());

        assertThat(nodes(plan, "Seq Scan")).as("sequential scans").isEmpty();
        assertThat(nodes(plan, "Index Scan").size() + nodes(plan, "Index Only Scan").size()).isEqualTo(3);
        assertThat(pages(plan)).as("pages read by the probe").isLessThan(30);
        assertThat(nodes(plan, "Index Scan")).allSatisfy(scan -> assertThat(scan.path("Actual Rows").asLong())
                .isLessThanOrEqualTo(1));
    }

    @Test
    void thePendingGaugeCountsTheDueJobsOnly() throws Exception {
        JsonNode plan = explain(JobSql.COUNT_ACTIVE, Tuple.tuple());

        assertThat(nodes(plan, "Seq Scan")).as("sequential scans").isEmpty();
        assertThat(pages(plan)).as("pages read by the gauges").isLessThan(100);
    }

    @Test
    void theBacklogGaugesReadTheDueEntriesOfTheIndexOnly() throws Exception {
        JsonNode plan = explain(JobSql.BACKLOG, Tuple.tuple());

        assertThat(nodes(plan, "Seq Scan")).as("sequential scans").isEmpty();
        List<JsonNode> scans = new ArrayList<>(nodes(plan, "Index Only Scan"));
        scans.addAll(nodes(plan, "Index Scan"));
        // On a small table the planner may take a bitmap of the index's due entries instead.
        scans.addAll(nodes(plan, "Bitmap Index Scan"));
        assertThat(scans).isNotEmpty().allSatisfy(scan -> {
            assertThat(scan.path("Index Name").asText()).isEqualTo(INDEX);
            // Only the due entries: none of the jobs for later is read and dropped by a filter.
            assertThat(scan.path("Rows Removed by Filter").asLong()).isZero();
        });
        assertThat(pages(plan)).as("pages read by the backlog gauges").isLessThan(100);
    }

    @Test
    void theQueueGaugesReadTheDueEntriesOfTheIndexAndTheParkedJobsOnly() throws Exception {
        JsonNode plan = explain(JobSql.QUEUE_BACKLOG, Tuple.tuple());

        // parked_jobs holds only the jobs no live worker serves: reading it whole is the point
        assertThat(nodes(plan, "Seq Scan")).as("sequential scans")
                .allSatisfy(scan -> assertThat(scan.path("Relation Name").asText()).isEqualTo("parked_jobs"));
        List<JsonNode> scans = new ArrayList<>(nodes(plan, "Index Only Scan"));
        scans.addAll(nodes(plan, "Index Scan"));
        scans.addAll(nodes(plan, "Bitmap Index Scan"));
        assertThat(scans).anySatisfy(scan -> assertThat(scan.path("Index Name").asText()).isEqualTo(INDEX));
        assertThat(scans).allSatisfy(scan -> {
            assertThat(scan.path("Index Name").asText())
                    .isIn(INDEX, "job_executions_pkey", "parked_jobs_pkey", "idx_parked_jobs_pair");
            assertThat(scan.path("Rows Removed by Filter").asLong()).isZero();
        });
        assertThat(pages(plan)).as("pages read by the queue gauges").isLessThan(100);
    }

    /** The plan of {@code sql} as it ran, in a transaction rolled back (a claim locks rows). */
    private JsonNode explain(String sql, Tuple args) throws Exception {
        String json = pool.withConnection(c -> c.begin().chain(tx -> c.preparedQuery(
                        "EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " + sql).execute(args)
                .map(rows -> rows.iterator().next().getValue(0).toString())
                .call(tx::rollback))).await().atMost(TIMEOUT);
        return QueryPlans.plan(json);
    }

    private void execute(String sql, Object... args) {
        pool.preparedQuery(sql).execute(Tuple.from(args)).await().atMost(TIMEOUT);
    }
}
