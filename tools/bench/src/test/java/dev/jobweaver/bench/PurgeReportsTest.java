package dev.jobweaver.bench;

import static dev.jobweaver.bench.Fixtures.target;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The purge figures in the console, summary.json and the targets, and the purge's share of correctness. */
class PurgeReportsTest {

    private static final String NAME = "submit-to-start during the purge";
    private static final PurgeRun.Others UNTOUCHED = new PurgeRun.Others(50, 50, 40, 40);

    /** 1,000 seeded jobs gone from the API after 4 s and from the scheduler after 5 s. */
    private static PurgeRun purged(PurgeRun.Others others) {
        return new PurgeRun("bench-purge-x", 1000, 2.5, new PurgeRun.Database("jobweaver_api.jobs", 0, 4),
                new PurgeRun.Database("jobweaver_scheduler.job_executions", 0, 5), 0, others,
                List.of(new PurgeRun.Sample(5, 0, 0)), Duration.ofMinutes(10));
    }

    /** Two steady jobs during the purge, starting {@code startMs} and 10 ms after their submit. */
    private static WorkloadResult run(long startMs, PurgeRun figures) {
        List<JobRecord> jobs = List.of(Fixtures.completed(JobKind.NOOP, 0, 10, 20),
                Fixtures.completed(JobKind.NOOP, 0, startMs, startMs + 10));
        return WorkloadResult.of(new BenchOptions.Run(Workload.PURGE, 0, "purge"), Fixtures.submission(2), jobs, "")
                .withPurge(figures, "seeded");
    }

    @Test
    void theConsoleHasOneRowPerDatabaseAndTheTargetsRow() {
        BenchRun run = Fixtures.run(List.of("purge", "--jobs", "1000"), run(40, purged(UNTOUCHED)));
        String text = ConsoleReport.render(run);
        assertThat(text).contains(FeatureTables.PURGE_TITLE);
        // 1000 jobs in 4 s: 250 jobs/s; in 5 s: 200 jobs/s
        assertThat(text).containsPattern("\npurge +jobweaver_api\\.jobs +1000 +2\\.50 +0 +4 +250 +2 +");
        assertThat(text).containsPattern("\npurge +jobweaver_scheduler\\.job_executions +1000 +2\\.50 +0 +5 +200 +2 +");
        TargetRow row = target(run, NAME);
        assertThat(row.verdict()).isEqualTo("pass");
        assertThat(row.measured()).startsWith("p99 40").endsWith("over 2 jobs at 100/s, purge of 1000 jobs in 5 s");
    }

    @Test
    void aSlowStartMissesTheTarget() {
        BenchRun run = Fixtures.run(List.of("purge"), run(150, purged(UNTOUCHED)));
        assertThat(target(run, NAME).verdict()).isEqualTo("miss");
    }

    @Test
    void aPurgeThatRemovedNothingIsNotJudged() {
        PurgeRun stuck = new PurgeRun("bench-purge-x", 1000, 2.5, new PurgeRun.Database("jobweaver_api.jobs", 1000,
                Double.NaN), new PurgeRun.Database("jobweaver_scheduler.job_executions", 1000, Double.NaN), -1,
                UNTOUCHED, List.of(), Duration.ofMinutes(10));
        BenchRun run = Fixtures.run(List.of("purge"), run(40, stuck));
        TargetRow row = target(run, NAME);
        assertThat(row.verdict()).isEqualTo("n/a");
        assertThat(row.measured()).endsWith("unfinished after 600 s: the purge removed nothing");
        assertThat(stuck.lines()).contains("jobweaver_api.jobs: 1000 of 1000 LEFT after 600 s");
        assertThat(stuck.slower()).isEqualTo(stuck.api());
    }

    @Test
    void anotherRateIsReportedButNotJudged() {
        BenchRun run = Fixtures.run(List.of("purge", "--rate", "50"), run(40, purged(UNTOUCHED)));
        assertThat(target(run, NAME).verdict()).isEqualTo("n/a");
    }

    @Test
    void aPurgeNotRunIsNamed() {
        BenchRun run = Fixtures.run(List.of("purge"));
        Fixtures.assertRow(target(run, NAME), "n/a", "purge not run");
    }

    @Test
    void rowsOfOtherTenantsGoneAreACorrectnessProblem() {
        WorkloadResult clean = run(40, purged(UNTOUCHED));
        assertThat(clean.correctness().ok()).isTrue();
        WorkloadResult lossy = run(40, purged(new PurgeRun.Others(50, 47, 40, 39)));
        assertThat(lossy.correctness().ok()).isFalse();
        assertThat(lossy.correctness().unexpected()).isEqualTo(4);
        assertThat(lossy.correctness().examples()).anyMatch(e -> e.contains("jobs 50 -> 47, job_executions 40 -> 39"));
        // more rows after than before (new jobs of other tenants) is no loss
        assertThat(new PurgeRun.Others(50, 60, 40, 41).purged()).isZero();
    }

    @Test
    void theRatesAndTheSlowerDatabase() {
        PurgeRun p = purged(UNTOUCHED);
        assertThat(p.api().rate(p.seeded())).isEqualTo(250);
        assertThat(p.scheduler().rate(p.seeded())).isEqualTo(200);
        assertThat(p.slower()).isEqualTo(p.scheduler());
        assertThat(p.done()).isTrue();
        assertThat(p.lines()).containsExactly(
                "seeded 1000 COMPLETED jobs of tenant bench-purge-x into each database in 2.50 s (inserts and ANALYZE)",
                "jobweaver_api.jobs: 1000 gone in 4 s, 250 jobs/s",
                "jobweaver_scheduler.job_executions: 1000 gone in 5 s, 200 jobs/s");
    }

    @Test
    void theCapGrowsWithTheSeedPastItsLeast() {
        assertThat(PurgeRun.cap(20_000)).isEqualTo(PurgeRun.MIN_CAP);
        assertThat(PurgeRun.cap(1_000_000)).isEqualTo(Duration.ofSeconds(4000));
    }

    @Test
    void summaryJsonHasThePurge() throws Exception {
        BenchRun run = Fixtures.run(List.of("purge"), run(40, purged(UNTOUCHED)));
        JsonNode purge = null;
        for (JsonNode w : SummaryJson.of(new ObjectMapper(), run).path("workloads")) {
            if (w.has("purge")) {
                purge = w.path("purge");
            }
        }
        assertThat(purge).isNotNull();
        assertThat(purge.path("seeded").asLong()).isEqualTo(1000);
        assertThat(purge.path("jobweaver_api.jobs").path("jobsPerSecond").asDouble()).isEqualTo(250);
        assertThat(purge.path("othersPurged").asLong()).isZero();
    }

    @Test
    void withoutJobsTheSeedDefaultsToAMillion() {
        assertThat(BenchOptions.parse(List.of("purge"), java.nio.file.Path.of("/r")).purgeJobs()).isEqualTo(1_000_000);
        assertThat(BenchOptions.parse(List.of("purge", "--jobs", "20000"), java.nio.file.Path.of("/r")).purgeJobs())
                .isEqualTo(20_000);
    }
}
