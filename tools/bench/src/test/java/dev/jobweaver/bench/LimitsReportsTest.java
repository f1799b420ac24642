package dev.jobweaver.bench;

import static dev.jobweaver.bench.Fixtures.target;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The limits figures in the console, summary.json, report.html, the targets and the raw files. */
class LimitsReportsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path folder;

    /** Two no-op jobs, the last finishing {@code lastMs} after the first submit: 2 / lastMs jobs per second. */
    private static WorkloadResult burst(Workload workload, String label, long lastMs) {
        List<JobRecord> jobs = List.of(Fixtures.completed(JobKind.NOOP, 0, 10, lastMs / 2),
                Fixtures.completed(JobKind.NOOP, 0, 20, lastMs));
        return WorkloadResult.of(new BenchOptions.Run(workload, 64, label), Fixtures.submission(2), jobs, "");
    }

    /**
     * The limited burst (2 jobs over 800 ms: 2.5 jobs/s, 62.5% of a burst over 500 ms) and 20 jobs of 200 ms under
     * maxRunning 5, in waves of 5, with one more started beside the first wave when {@code exceeded}.
     */
    private static WorkloadResult limits(boolean exceeded) {
        List<JobRecord> binding = new ArrayList<>(LimitsBenchTest.waves(20, 5));
        if (exceeded) {
            binding.add(Fixtures.completed(JobKind.SHORT_SLEEPER, 0, 150, 300));
        }
        return burst(Workload.LIMITS, "limits", 800).withLimits(
                TenantLimits.of(LimitsBench.TENANT, 2_048, 5, 200, 0, binding), "tenant limits");
    }

    private static BenchRun run(WorkloadResult... results) {
        return Fixtures.run(List.of("burst", "limits"), results);
    }

    @Test
    void theConsoleHasTheLimitedBurstBesideThePlainOneAndTheBindingPhase() {
        BenchRun run = run(burst(Workload.BURST, "burst", 500), limits(false));
        String text = ConsoleReport.render(run);
        assertThat(text).contains(FeatureTables.LIMITS_TITLE, FeatureTables.LIMITS_BINDING_TITLE);
        assertThat(text).containsPattern("\nburst +none +2 +4 +10(\\.0)? +20(\\.0)? +250 +500 *\n");
        assertThat(text).containsPattern("\nlimits +2048 +2 +2\\.50 +62\\.5% +10(\\.0)? +20(\\.0)? +400 +800 *\n");
        // 20 jobs from 100 to 900 ms: 25 jobs/s, the ideal 5 / 0.2 s
        assertThat(text).containsPattern("\nlimits +5 +20 +0 +20 +200 +5 +0 +25 +25 +100% +yes *\n");
        // the limited burst is also a workload row as the burst's, its correctness over both phases' 22 jobs
        assertThat(text).containsPattern("\nlimits +2 +0 +2 +2\\.50 ");
        TargetRow row = target(run, "limits correctness");
        assertThat(row.verdict()).isEqualTo("pass");
        assertThat(row.goal()).isEqualTo("every job as expected, exactly once, never more than maxRunning 5 running");
        assertThat(row.measured()).isEqualTo("22/22 as expected, 0 lost, 0 duplicated, 0 unexpected");
    }

    @Test
    void withoutThePlainBurstTheLimitedOneStandsAlone() {
        String text = ConsoleReport.render(run(limits(false)));
        assertThat(text).containsPattern("\nlimits +2048 +2 +2\\.50 +- +");
        assertThat(text).doesNotContainPattern("\nburst +none");
    }

    @Test
    void aLimitExceededMissesTheCorrectnessTargetAndSaysSo() {
        BenchRun run = run(burst(Workload.BURST, "burst", 500), limits(true));
        String text = ConsoleReport.render(run);
        assertThat(text).containsPattern("\nlimits +5 +21 +0 +21 +200 +6 +1 +[0-9.]+ +25 +[0-9.]+% +EXCEEDED *\n");
        assertThat(text).contains("jobs of tenant bench-limited started while 5 ran already (maxRunning 5; at most 6 "
                + "at once)");
        Fixtures.assertRow(target(run, "limits correctness"), "miss", "22/23 as expected, 0 lost, 0 duplicated, 1 unexpected");
    }

    @Test
    void summaryJsonHtmlAndTheRawFilesCarryTheSameFigures() throws Exception {
        BenchRun run = run(burst(Workload.BURST, "burst", 500), limits(false));
        JsonNode json = SummaryJson.of(JSON, run);
        assertThat(json.at("/options/limitsBurst").asInt()).isEqualTo(2_048);
        assertThat(json.at("/options/limitsBinding").asInt()).isEqualTo(5);
        assertThat(json.at("/options/limitsJobs").asInt()).isEqualTo(200);
        JsonNode w = json.at("/workloads/1");
        assertThat(w.path("throughputJobsPerSecond").asDouble()).isEqualTo(2.5);
        assertThat(w.at("/submitToStartMs/p99").asDouble()).isCloseTo(20, org.assertj.core.data.Offset.offset(0.1));
        JsonNode l = w.path("limits");
        assertThat(l.path("tenant").asText()).isEqualTo("bench-limited");
        assertThat(l.path("maxRunning").asInt()).isEqualTo(2_048);
        assertThat(l.path("burstJobsPerSecond").asDouble()).isEqualTo(4);
        assertThat(l.path("ratioToBurst").asDouble()).isEqualTo(0.625);
        JsonNode b = l.path("binding");
        assertThat(b.path("maxRunning").asInt()).isEqualTo(5);
        assertThat(b.path("jobs").asInt()).isEqualTo(20);
        assertThat(b.path("completed").asInt()).isEqualTo(20);
        assertThat(b.path("sleepMs").asInt()).isEqualTo(200);
        assertThat(b.path("maxRunningSeen").asInt()).isEqualTo(5);
        assertThat(b.path("startsOverLimit").asInt()).isZero();
        assertThat(b.path("exceeded").asBoolean()).isFalse();
        assertThat(b.path("jobsPerSecond").asDouble()).isEqualTo(25);
        assertThat(b.path("idealJobsPerSecond").asDouble()).isEqualTo(25);
        assertThat(b.path("shareOfIdeal").asDouble()).isEqualTo(1);
        assertThat(w.at("/correctness/accepted").asInt()).isEqualTo(22);
        assertThat(json.at("/workloads/0/limits").isMissingNode()).isTrue();

        String html = HtmlReport.render(run);
        assertThat(html).contains("<h2>Concurrency limits</h2>", "<td>limits</td><td>2048</td><td>2</td><td>2.50</td>"
                + "<td>62.5%</td>", "<td>limits</td><td>5</td><td>20</td><td>0</td><td>20</td><td>200</td><td>5</td>");

        Path out = folder.resolve("x");
        Bench.write(out, run);
        assertThat(Files.readAllLines(out.resolve("limits-binding-jobs.csv"))).hasSize(21)
                .first().isEqualTo(RawFiles.JOBS_HEADER);
        assertThat(Files.readAllLines(out.resolve("limits-jobs.csv"))).hasSize(3);
        assertThat(out.resolve("burst-binding-jobs.csv")).doesNotExist();
    }

    @Test
    void otherWorkloadsHaveNoLimitsTables() {
        WorkloadResult burst = burst(Workload.BURST, "burst", 500);
        assertThat(FeatureTables.limitsBurst(List.of(burst))).isNull();
        assertThat(FeatureTables.limitsBinding(List.of(burst))).isNull();
        assertThat(FeatureTables.limitsBurst(List.of(WorkloadResult.unavailable(new BenchOptions.Run(Workload.LIMITS,
                64, "limits"), "the platform does not support tenant limits")))).isNull();
        String text = ConsoleReport.render(run(burst));
        assertThat(text).doesNotContain(FeatureTables.LIMITS_TITLE);
        assertThat(target(run(burst), "burst correctness").goal()).isEqualTo("every job as expected, exactly once");
        assertThat(HtmlReport.render(run(burst))).doesNotContain("Concurrency limits");
    }
}
