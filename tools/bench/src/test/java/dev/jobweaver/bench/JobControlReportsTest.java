package dev.jobweaver.bench;

import static dev.jobweaver.bench.Fixtures.at;
import static dev.jobweaver.bench.Fixtures.completed;
import static dev.jobweaver.bench.Fixtures.submission;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The priorities, delayed and delayed-idle figures in the targets, the console, summary.json, report.html, files. */
class JobControlReportsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path folder;

    private static BenchOptions options(String... args) {
        return BenchOptions.parse(List.of(args), Path.of("/r"));
    }

    /** {@code n} no-op jobs completing evenly until {@code lastMs}; HIGH ones start after 5 ms, the others later. */
    private static WorkloadResult priorities(int n, long lastMs, boolean lose) {
        List<JobRecord> jobs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Priority p = Control.mixed(i);
            long start = switch (p) {
                case HIGH -> 5;
                case NORMAL -> 50;
                case LOW -> 400;
            };
            JobRecord job = lose && i == 0 ? Fixtures.ended(JobKind.NOOP, null, 0, 0)
                    : completed(JobKind.NOOP, 0, start, Math.max(start + 1, lastMs * (i + 1) / n));
            jobs.add(job.withControl(Control.of(p), null, p));
        }
        return WorkloadResult.of(new BenchOptions.Run(Workload.PRIORITIES, 64, "priorities"), submission(n), jobs,
                "");
    }

    private static WorkloadResult burst(int n, long lastMs) {
        List<JobRecord> jobs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            jobs.add(completed(JobKind.NOOP, 0, 1, lastMs * (i + 1) / n));
        }
        return Fixtures.burst(jobs);
    }

    /** Delayed jobs, each {@code lateMs[i]} after its runAt. */
    private static WorkloadResult delayed(long... lateMs) {
        List<JobRecord> jobs = new ArrayList<>();
        for (int i = 0; i < lateMs.length; i++) {
            long due = 2_000 + i;
            jobs.add(completed(JobKind.NOOP, 0, due + lateMs[i], due + lateMs[i] + 3)
                    .withControl(Control.delayed(due), at(due), null));
        }
        return WorkloadResult.of(new BenchOptions.Run(Workload.DELAYED, 0, "delayed"), submission(lateMs.length),
                jobs, "");
    }

    private static WorkloadResult idle() {
        IdleCpu idle = new IdleCpu(1_000_000, Duration.ofDays(1), 14.2, Duration.ofSeconds(30),
                List.of(new IdleCpu.ProcessCpu("scheduler-service", 3.5, 4.25),
                        new IdleCpu.ProcessCpu("postgres", 6.0, 9.0)), 1_000_000);
        return WorkloadResult.idle(new BenchOptions.Run(Workload.DELAYED_IDLE, 0, "delayed-idle"), idle,
                "rows inserted directly");
    }

    private static TargetRow row(List<TargetRow> rows, String target) {
        return rows.stream().filter(r -> r.target().equals(target)).findFirst().orElseThrow();
    }

    @Test
    void prioritiesPassAtNinetyPercentOfTheBurstWithEveryJobCompleted() {
        BenchOptions options = options("burst", "priorities");
        // the burst: 1,000 jobs in 1 s; priorities: 1,000 in 1.1 s (90.9%) and in 1.2 s (83.3%)
        TargetRow pass = row(Targets.evaluate(List.of(burst(1_000, 1_000), priorities(1_000, 1_100, false)),
                options, Fixtures.platform(), List.of()), "priorities throughput");
        assertThat(pass.verdict()).isEqualTo("pass");
        assertThat(pass.goal()).isEqualTo("mixed priorities >= 90% of the burst's jobs/s, every job COMPLETED once");
        assertThat(pass.measured()).startsWith("909 jobs/s = 90.9% of 1000, 1000/1000 as expected")
                .endsWith("; start p50 HIGH 5 ms, NORMAL 50 ms, LOW 400 ms");
        TargetRow slow = row(Targets.evaluate(List.of(burst(1_000, 1_000), priorities(1_000, 1_200, false)),
                options, Fixtures.platform(), List.of()), "priorities throughput");
        assertThat(slow.verdict()).isEqualTo("miss");
        TargetRow lost = row(Targets.evaluate(List.of(burst(1_000, 1_000), priorities(1_000, 1_000, true)),
                options, Fixtures.platform(), List.of()), "priorities throughput");
        assertThat(lost.verdict()).as("fast enough, but a job was lost").isEqualTo("miss");
    }

    @Test
    void prioritiesCompareWithTheBaselineWithoutABurstAndSayWhenThereIsNone() {
        TargetRow baseline = row(Targets.evaluate(List.of(priorities(1_000, 1_000, false)),
                options("priorities", "--baseline", "1000"), Fixtures.platform(), List.of()), "priorities throughput");
        assertThat(baseline.verdict()).isEqualTo("pass");
        assertThat(baseline.measured()).startsWith("1000 jobs/s = 100% of 1000");
        TargetRow none = row(Targets.evaluate(List.of(priorities(1_000, 1_000, false)), options("priorities"),
                Fixtures.platform(), List.of()), "priorities throughput");
        assertThat(none.verdict()).isEqualTo("n/a");
        assertThat(none.measured()).contains("no burst figure (run burst too or pass --baseline)");
        TargetRow unavailable = row(Targets.evaluate(List.of(WorkloadResult.unavailable(
                new BenchOptions.Run(Workload.PRIORITIES, 64, "priorities"), "the API rejects \"priority\"")),
                options("priorities"), Fixtures.platform(), List.of()), "priorities throughput");
        assertThat(unavailable.verdict()).isEqualTo("n/a");
    }

    @Test
    void delayedPassesWithinAHundredMillisecondsAtTheP99AndNoneEarly() {
        List<TargetRow> rows = Targets.evaluate(List.of(delayed(10, 20, 30, 40, 90)), options("delayed"),
                Fixtures.platform(), List.of());
        TargetRow pass = row(rows, "delayed start");
        assertThat(pass.goal()).isEqualTo("delayed jobs start within 100 ms of their time at the p99, none early "
                + "(more than 2 ms before it)");
        Fixtures.assertRow(pass, "pass", "p50 30.0 ms, p99 90 ms, max 90 ms; 0 early (earliest 10 ms); "
                + "5 of 5 started");
        assertThat(row(rows, "delayed correctness").verdict()).isEqualTo("pass");
        assertThat(row(Targets.evaluate(List.of(delayed(10, 20, 150)), options("delayed"), Fixtures.platform(),
                List.of()), "delayed start").verdict()).isEqualTo("miss");
        TargetRow early = row(Targets.evaluate(List.of(delayed(10, 20, -3)), options("delayed"),
                Fixtures.platform(), List.of()), "delayed start");
        assertThat(early.verdict()).isEqualTo("miss");
        assertThat(early.measured()).contains("1 early (earliest -3 ms)");
    }

    @Test
    void theJobControlRowsAppearOnlyWhenTheirWorkloadsWereAskedFor() {
        List<TargetRow> rows = Targets.evaluate(List.of(burst(10, 10)), options(), Fixtures.platform(), List.of());
        assertThat(rows).extracting(TargetRow::target).doesNotContain("priorities throughput", "delayed start");
    }

    private BenchRun run() {
        BenchOptions options = options("burst", "priorities", "delayed", "delayed-idle");
        List<WorkloadResult> results = List.of(burst(1_000, 1_000), priorities(1_000, 1_100, false),
                delayed(10, 20, -3), idle());
        return Fixtures.run(options, results);
    }

    @Test
    void theConsoleHasATablePerLevelTheLatenessAndTheIdleCpu() {
        String text = ConsoleReport.render(run());
        assertThat(text).contains(ControlTables.PRIORITY_TITLE, ControlTables.LATENESS_TITLE);
        assertThat(text).containsPattern("priorities +HIGH +600 +600 +5 +5 +5 +5 +0\n");
        assertThat(text).containsPattern("priorities +LOW +100 +100 +400 +400 +400 +400 +0\n");
        assertThat(text).containsPattern("delayed +3 +3 +10\\.0 +20 +20 +20 +-3 +1 +3 / 0\n");
        assertThat(text).contains("Idle CPU (ms of CPU per second, from /proc, over 30 s each): without and with "
                + "1,000,000 PENDING rows due in 24 h in jobweaver_scheduler.job_executions (inserted directly, not "
                + "through the API, in 14.2 s with the vacuum after; deleted after: 1000000)");
        assertThat(text).containsPattern("scheduler-service +3\\.50 +4\\.25 +0\\.75\n");
        assertThat(text).containsPattern("delayed-idle +idle CPU below");
        assertThat(text).contains("delayed-idle: rows inserted directly");
        assertThat(text).doesNotContain("delayed-idle correctness");
    }

    @Test
    void summaryJsonAndHtmlCarryTheSameFigures() {
        BenchRun run = run();
        JsonNode json = SummaryJson.of(JSON, run);
        assertThat(json.at("/options/workloads").toString())
                .isEqualTo("[\"burst\",\"priorities\",\"delayed\",\"delayed-idle\"]");
        assertThat(json.at("/options/delayedJobs").asInt()).isEqualTo(2_000);
        assertThat(json.at("/options/idleRows").asInt()).isEqualTo(1_000_000);
        assertThat(json.at("/workloads/0/byPriority").isMissingNode()).isTrue();
        assertThat(json.at("/workloads/1/byPriority/0/priority").asText()).isEqualTo("HIGH");
        assertThat(json.at("/workloads/1/byPriority/0/accepted").asInt()).isEqualTo(600);
        assertThat(json.at("/workloads/1/byPriority/2/submitToStartMs/p50").asDouble()).isEqualTo(400);
        assertThat(json.at("/workloads/2/lateness/early").asInt()).isEqualTo(1);
        assertThat(json.at("/workloads/2/lateness/earliestMs").asDouble()).isEqualTo(-3);
        assertThat(json.at("/workloads/2/lateness/latenessMs/max").asDouble()).isEqualTo(20);
        assertThat(json.at("/workloads/2/lateness/dueFromRunAt").asInt()).isEqualTo(3);
        assertThat(json.at("/workloads/3/idleCpu/rows").asInt()).isEqualTo(1_000_000);
        assertThat(json.at("/workloads/3/idleCpu/processes/0/withRowsCpuMsPerSecond").asDouble()).isEqualTo(4.25);
        assertThat(json.at("/workloads/3/correctness").isMissingNode()).isTrue();

        String html = HtmlReport.render(run);
        assertThat(html).contains("<h2>Priorities</h2>", "<h2>Delayed jobs</h2>", "<h2>Idle CPU</h2>",
                "<td>scheduler-service</td><td>3.50</td><td>4.25</td><td>0.75</td>", "idle CPU below");
    }

    @Test
    void rawFilesOfJobControlRunsHaveTheirColumnsAndTheIdleRunHasNone() throws Exception {
        Path out = folder.resolve("x");
        assertThat(Fixtures.written(out, run())).containsExactly("burst-jobs.csv",
                "burst-jobs.json", "delayed-jobs.csv", "delayed-jobs.json", "priorities-jobs.csv",
                "priorities-jobs.json", "report.html", "resources.csv", "summary.json");
        assertThat(Files.readAllLines(out.resolve("burst-jobs.csv")).getFirst()).isEqualTo(RawFiles.JOBS_HEADER);
        List<String> delayed = Files.readAllLines(out.resolve("delayed-jobs.csv"));
        assertThat(delayed.getFirst()).isEqualTo(RawFiles.JOBS_HEADER + "," + RawFiles.CONTROL_HEADER);
        assertThat(delayed.get(1)).endsWith(",,2000,,2026-01-01T00:00:02Z,2026-01-01T00:00:02Z,10.000");
        assertThat(Files.readAllLines(out.resolve("priorities-jobs.csv")).get(1)).endsWith(",HIGH,,HIGH,,,");
        JsonNode jobs = JSON.readTree(out.resolve("delayed-jobs.json").toFile());
        assertThat(jobs.get(2).path("latenessMs").asDouble()).isEqualTo(-3);
        assertThat(jobs.get(0).path("delayMs").asLong()).isEqualTo(2_000);
        assertThat(jobs.get(0).path("priority").isNull()).isTrue();
        assertThat(JSON.readTree(out.resolve("burst-jobs.json").toFile()).get(0).has("latenessMs")).isFalse();
    }
}
