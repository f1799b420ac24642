package dev.jobweaver.bench;

import static dev.jobweaver.bench.Fixtures.target;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The mixed figures in the console, summary.json, report.html and the targets. */
class MixedReportsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Two no-op jobs, the last finishing {@code lastMs} after the first submit: 2 / lastMs jobs per second. */
    private static WorkloadResult burst(Workload workload, String label, long lastMs) {
        List<JobRecord> jobs = List.of(Fixtures.completed(JobKind.NOOP, 0, 10, lastMs / 2),
                Fixtures.completed(JobKind.NOOP, 0, 20, lastMs));
        return WorkloadResult.of(new BenchOptions.Run(workload, 64, label), Fixtures.submission(2), jobs, "");
    }

    /** The mixed run over {@code lastMs}: one keyed job, one labelled with its webhook, one run COMPLETED. */
    private static WorkloadResult mixed(long lastMs) {
        UUID keyed = UUID.randomUUID();
        UUID labelled = UUID.randomUUID();
        return burst(Workload.MIXED, "mixed", lastMs).withMixed(MixedFeatures.of(Map.of(keyed, keyed),
                Map.of(labelled, true), true, List.of(labelled), List.of("COMPLETED"), 1, 10), "features");
    }

    @Test
    void theConsoleHasTheMixedTableAndTheTargetsRow() {
        BenchRun run = Fixtures.run(List.of("burst", "mixed"), burst(Workload.BURST, "burst", 500), mixed(550));
        String text = ConsoleReport.render(run);
        assertThat(text).contains(FeatureTables.MIXED_TITLE);
        // 2 jobs over 550 ms: 3.64 jobs/s, 90.9% of the burst's 4
        assertThat(text).containsPattern("\nmixed +2 +3\\.64 +90\\.9% +1 +1 +1 +1 +0 +0 +0 +1/1 +10 *\n");
        Fixtures.assertRow(target(run, "mixed throughput"), "pass", "3.64 jobs/s = 90.9% of 4");
        Fixtures.assertRow(target(run, "mixed correctness"), "pass",
                "5/5 as expected, 0 lost, 0 duplicated, 0 unexpected");
        assertThat(HtmlReport.render(run)).contains("<h2>Mixed features</h2>");
    }

    @Test
    void belowEightyFivePercentIsAMissAndWithoutABurstTheBaselineStandsIn() {
        BenchRun slow = Fixtures.run(List.of("burst", "mixed"), burst(Workload.BURST, "burst", 500), mixed(600));
        Fixtures.assertRow(target(slow, "mixed throughput"), "miss", "3.33 jobs/s = 83.3% of 4");
        BenchRun alone = Fixtures.run(List.of("mixed", "--baseline", "4"), mixed(550));
        Fixtures.assertRow(target(alone, "mixed throughput"), "pass", "3.64 jobs/s = 90.9% of 4");
        assertThat(ConsoleReport.render(alone)).containsPattern("\nmixed +2 +3\\.64 +90\\.9% ");
        BenchRun none = Fixtures.run(List.of("mixed"), mixed(550));
        assertThat(target(none, "mixed throughput").verdict()).isNotEqualTo("pass").isNotEqualTo("miss");
    }

    @Test
    void summaryJsonCarriesTheFeaturesFigures() {
        BenchRun run = Fixtures.run(List.of("burst", "mixed"), burst(Workload.BURST, "burst", 500), mixed(500));
        JsonNode m = SummaryJson.of(JSON, run).at("/workloads/1/mixed");
        assertThat(m.path("burstJobsPerSecond").asDouble()).isEqualTo(4);
        assertThat(m.path("ratioToBurst").asDouble()).isEqualTo(1);
        assertThat(m.at("/idempotency/keyed").asInt()).isEqualTo(1);
        assertThat(m.at("/idempotency/repeatSameJob").asInt()).isEqualTo(1);
        assertThat(m.at("/webhooks/filtered").asBoolean()).isTrue();
        assertThat(m.at("/webhooks/once").asInt()).isEqualTo(1);
        assertThat(m.at("/workflow/runsCompleted").asInt()).isEqualTo(1);
        assertThat(m.at("/workflow/nodeJobs").asInt()).isEqualTo(10);
        assertThat(SummaryJson.of(JSON, run).at("/workloads/0/mixed").isMissingNode()).isTrue();
    }

    @Test
    void otherWorkloadsHaveNoMixedTableNorRow() {
        BenchRun run = Fixtures.run(List.of("burst"), burst(Workload.BURST, "burst", 500));
        assertThat(ConsoleReport.render(run)).doesNotContain(FeatureTables.MIXED_TITLE);
        assertThat(run.targets()).noneMatch(t -> t.target().equals("mixed throughput"));
    }
}
