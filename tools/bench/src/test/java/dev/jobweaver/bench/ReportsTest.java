package dev.jobweaver.bench;

import static dev.jobweaver.bench.Fixtures.completed;
import static dev.jobweaver.bench.Fixtures.ended;
import static dev.jobweaver.bench.Fixtures.submission;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The console tables, summary.json, report.html and the output folder, from one fabricated run. */
class ReportsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path folder;

    static BenchRun run() {
        return run(List.of(new ResourceSample(0, "api-service", 150 * 1024, Double.NaN),
                new ResourceSample(1000, "api-service", 170 * 1024, 80, 1.25, 0.5),
                new ResourceSample(1000, "kafka", 400 * 1024, 30)));
    }

    static BenchRun run(List<ResourceSample> samples) {
        BenchOptions options = BenchOptions.parse(List.of("burst", "retries"), Path.of("/r"));
        WorkloadResult burst = Fixtures.burst(List.of(completed(JobKind.NOOP, 0, 4, 10),
                completed(JobKind.NOOP, 1, 6, 20), ended(JobKind.NOOP, "COMPLETED", 1, 2)));
        WorkloadResult retries = WorkloadResult.unavailable(Workload.RETRIES, "the API rejects \"times\" <400>");
        List<ResourceSummary> resources = ResourceSummary.of(samples, Long.MIN_VALUE, Long.MAX_VALUE);
        List<WorkloadResult> results = List.of(burst, retries);
        Machine machine = new Machine("AMD EPYC", 2, 153.4);
        Map<String, CpuPerJob> cpu = Map.of("burst", CpuPerJob.of(samples, burst, machine.cpus()));
        return new BenchRun(Fixtures.T0, options, Fixtures.platform(), results,
                Targets.evaluate(results, options, Fixtures.platform(), resources, cpu), resources,
                Map.of("burst", resources), samples, machine, new WarmUp(2_000, List.of(1.0, 0.05), true, true));
    }

    @Test
    void consoleShowsFiguresTargetsAndWhyAWorkloadIsUnavailable() {
        String text = ConsoleReport.render(run());
        assertThat(text).contains("Workloads", "Latency", "Where the time goes", "Resources",
                "Targets (reported, not asserted)");
        // 6 and 14 ms: the median is the end of 6 ms's histogram bucket (6.003), the p99 is capped at the max
        assertThat(text).containsPattern("worker: started to finished\\s+6\\.00 / 14\\s");
        assertThat(text).contains("retries   unavailable");
        assertThat(text).contains("retries unavailable: the API rejects \"times\" <400>");
        assertThat(text).contains("executed 2 times, expected 1");
        assertThat(text).containsPattern("api-service RSS\\s+<= 280 MB\\s+max 170 MB\\s+pass");
        assertThat(text).containsPattern("burst correctness .* miss");
        assertThat(text).containsPattern("JIT cpu s\\s+GC cpu s");
        assertThat(text).contains("Machine: AMD EPYC, 2 CPUs; memory latency 153 ns");
        assertThat(text).contains("Platform: services on the JVM (");
        assertThat(text).contains("Warm-up: 4,000 no-op jobs in 2 rounds of 2,000");
        assertThat(text).containsPattern("api-service\\s+170\\s+160\\s+80\\s+80\\s+1\\.25\\s+0\\.50\\s");
        assertThat(text).containsPattern("kafka\\s+400\\s+400\\s+30\\s+30\\s+-\\s+-\\s");
    }

    @Test
    void cpuPerJobIsShownPerWorkloadAndProcessWithItsCeiling() throws Exception {
        // The burst's window is T0 to T0+20 ms (its three COMPLETED jobs); 80% and 30% of a core over it.
        long t0 = Fixtures.T0.toEpochMilli();
        BenchRun run = run(List.of(new ResourceSample(t0, "api-service", 170 * 1024, Double.NaN),
                new ResourceSample(t0, "kafka", 400 * 1024, Double.NaN),
                new ResourceSample(t0 + 20, "api-service", 170 * 1024, 80),
                new ResourceSample(t0 + 20, "kafka", 400 * 1024, 30)));

        String text = ConsoleReport.render(run);
        assertThat(text).contains("CPU per completed job, first submission to last completion");
        // api 0.8 × 20 ms / 3 jobs = 5.33 ms, kafka 2 ms; 2 cores / 7.33 ms a job = 273 jobs/s
        assertThat(text).containsPattern("burst\\s+5\\.33\\s+2\\s+7\\.33\\s+273");
        assertThat(text).containsPattern(
                "burst throughput .*; CPU 7\\.33 ms a job \\(bench included\\), so at most 273 jobs/s");
        JsonNode json = SummaryJson.of(JSON, run);
        assertThat(json.at("/workloads/0/cpuPerJobMs/byProcess/api-service").asDouble()).isCloseTo(16.0 / 3,
                org.assertj.core.api.Assertions.within(1e-3));
        assertThat(json.at("/workloads/0/cpuPerJobMs/platform").asDouble()).isCloseTo(22.0 / 3,
                org.assertj.core.api.Assertions.within(1e-3));
        assertThat(HtmlReport.render(run)).contains("<h2>CPU per completed job</h2>");
    }

    @Test
    void summaryJsonHasEveryFigure() {
        JsonNode json = SummaryJson.of(JSON, run());
        assertThat(json.at("/options/workloads").toString()).isEqualTo("[\"burst\",\"retries\"]");
        JsonNode burst = json.at("/workloads/0");
        assertThat(burst.path("workload").asText()).isEqualTo("burst");
        assertThat(burst.at("/submission/accepted").asInt()).isEqualTo(3);
        assertThat(burst.at("/correctness/duplicated").asInt()).isEqualTo(1);
        assertThat(burst.at("/submitToStartMs/max").asDouble()).isEqualTo(10.0);
        assertThat(burst.at("/stagesMs/3/stage").asText()).isEqualTo("kafka+worker: dispatched to started");
        assertThat(burst.at("/stagesMs/3/count").asInt()).isEqualTo(2);
        assertThat(burst.path("throughputJobsPerSecond").isNumber()).isTrue();
        assertThat(burst.path("visibleThroughputJobsPerSecond").asDouble())
                .isLessThan(burst.path("throughputJobsPerSecond").asDouble());
        assertThat(json.at("/workloads/1/available").asBoolean()).isFalse();
        assertThat(json.at("/resources/0/maxRssMb").asDouble()).isEqualTo(170.0);
        assertThat(json.at("/machine/memoryLatencyNs").asDouble()).isEqualTo(153.4);
        assertThat(json.at("/machine/cpus").asInt()).isEqualTo(2);
        assertThat(json.at("/warmUp/jobs").asInt()).isEqualTo(4_000);
        assertThat(json.at("/warmUp/roundJitCpuSeconds/1").asDouble()).isEqualTo(0.05);
        assertThat(json.at("/resources/0/jitCpuSeconds").asDouble()).isEqualTo(1.25);
        assertThat(json.at("/resources/1/gcCpuSeconds").isNull()).as("kafka had no JVM figures").isTrue();
        assertThat(json.at("/platform/instances/2/readyMs").isNull()).isTrue();
        assertThat(json.path("targets").size()).isGreaterThan(5);
    }

    @Test
    void theMachinesLoadDuringEachWorkloadIsInTheConsoleAndTheSummary() {
        BenchRun plain = run();
        BenchRun run = new BenchRun(plain.startedAt(), plain.options(), plain.platform(), plain.results(),
                plain.targets(), plain.resources(), plain.resourcesByWorkload(), plain.samples(), plain.machine(),
                plain.warmUp(), Map.of(), Map.of("burst", new MachineCpu.Load(87.5, 12.25)));
        assertThat(ConsoleReport.render(run)).contains("stolen %").containsPattern("burst\\s+87\\.5\\s+12\\.3");
        JsonNode json = SummaryJson.of(JSON, run);
        assertThat(json.at("/workloads/0/machine/coresBusyPercent").asDouble()).isEqualTo(87.5);
        assertThat(json.at("/workloads/0/machine/stolenPercent").asDouble()).isEqualTo(12.25);
        assertThat(json.at("/workloads/1/machine").isMissingNode()).as("retries was unavailable").isTrue();
        assertThat(HtmlReport.render(run)).contains("The machine's cores", "<td>87.5</td>");
        assertThat(ConsoleReport.render(plain)).as("no readings, no table").doesNotContain("stolen %");
        assertThat(HtmlReport.render(plain)).doesNotContain("The machine's cores");
    }

    @Test
    void htmlIsSelfContainedWithCharts() {
        String html = HtmlReport.render(run());
        assertThat(html).startsWith("<!DOCTYPE html>").endsWith("</html>\n");
        assertThat(html).contains("<svg", "Where the time goes", "Submit to start, percentiles", "Completions over time", "RSS over the run");
        assertThat(html).contains("<h2>Targets</h2>", "class=\"miss\"", "class=\"pass\"");
        assertThat(html).contains("the API rejects &quot;times&quot; &lt;400&gt;");
        assertThat(html).doesNotContain("<script", "http://cdn", "<link");
    }

    @Test
    void theFolderGetsRawFiguresPerWorkloadAndTheReports() throws Exception {
        Path out = folder.resolve("bench/x");
        assertThat(Fixtures.written(out, run())).containsExactly("burst-jobs.csv",
                "burst-jobs.json", "report.html", "resources.csv", "summary.json");
        assertThat(Files.readAllLines(out.resolve("burst-jobs.csv"))).hasSize(4);
        assertThat(JSON.readTree(out.resolve("burst-jobs.json").toFile())).hasSize(3);
        assertThat(JSON.readTree(out.resolve("summary.json").toFile()).path("workloads")).hasSize(2);
    }

    @Test
    void burstsAtSeveralConcurrenciesGetTheirOwnFilesRowsAndTheConcurrencyTable() throws Exception {
        BenchOptions options = BenchOptions.parse(List.of("burst", "--concurrency", "1,64"), Path.of("/r"));
        List<WorkloadResult> results = List.of(
                WorkloadResult.of(options.runs().get(0), submission(1), List.of(completed(JobKind.NOOP, 0, 4, 10)),
                        ""),
                WorkloadResult.of(options.runs().get(1), submission(2), List.of(completed(JobKind.NOOP, 0, 4, 10),
                        completed(JobKind.NOOP, 1, 6, 20)), ""));
        Machine machine = new Machine("AMD EPYC", 2, 153.4);
        BenchRun run = new BenchRun(Fixtures.T0, options, Fixtures.platform(), results,
                Targets.evaluate(results, options, Fixtures.platform(), List.of()), List.of(), Map.of(), List.of(),
                machine, WarmUp.none());

        String text = ConsoleReport.render(run);
        assertThat(text).contains("Burst by concurrency (connections of the client, one request in flight on each)");
        assertThat(text).containsPattern("\n {10}1 +1 +100 +5 +5 +4 +4 +1 +0 +0 +0\n");
        assertThat(text).containsPattern("burst c=1 +1 +0 +1 ");
        assertThat(text).containsPattern("burst c=64 correctness .* pass");
        JsonNode json = SummaryJson.of(JSON, run);
        assertThat(json.at("/options/concurrency").asInt()).isEqualTo(64);
        assertThat(json.at("/options/concurrencies").toString()).isEqualTo("[1,64]");
        assertThat(json.at("/workloads/0/label").asText()).isEqualTo("burst c=1");
        assertThat(json.at("/workloads/0/concurrency").asInt()).isEqualTo(1);
        assertThat(json.at("/burstByConcurrency/1/concurrency").asInt()).isEqualTo(64);
        assertThat(HtmlReport.render(run)).contains("<h2>Burst by concurrency</h2>", "Burst throughput by concurrency",
                "POST /api/jobs answer by concurrency");

        Path out = folder.resolve("sweep");
        assertThat(Fixtures.written(out, run)).containsExactly("burst-c1-jobs.csv",
                "burst-c1-jobs.json", "burst-c64-jobs.csv", "burst-c64-jobs.json", "report.html",
                "resources.csv", "summary.json");
    }

    @Test
    void aScaledOutPlatformGetsTheSharePerReplicaInEveryReport() {
        PlatformState platform = new PlatformState("http://localhost:8080", 5432, 99, 98, List.of(
                new PlatformState.Instance("api-service", "http://localhost:8080", 10, 900),
                new PlatformState.Instance("worker-service", "http://localhost:8082", 13, 900),
                new PlatformState.Instance("worker-service-2", "http://localhost:8182", 14, 900)));
        BenchOptions options = BenchOptions.parse(List.of("burst"), Path.of("/r"));
        WorkloadResult burst = WorkloadResult.of(options.runs().getFirst(), submission(2),
                List.of(completed(JobKind.NOOP, 0, 4, 10), completed(JobKind.NOOP, 1, 6, 20)), "")
                .withReplicaShare(ReplicaShare.of(platform, ReplicaShare.Snapshot.NONE, ReplicaShare.Snapshot.NONE,
                        Map.of("worker-service", 1L, "worker-service-2", 1L)));
        BenchRun run = new BenchRun(Fixtures.T0, options, platform, List.of(burst),
                Targets.evaluate(List.of(burst), options, platform, List.of()), List.of(), Map.of(), List.of(),
                new Machine("AMD EPYC", 2, 153.4), WarmUp.none());

        assertThat(ConsoleReport.render(run)).contains("Share per replica")
                .containsPattern("worker-service-2 +executions \\(execution_attempts\\) +1 \\(50%\\)\n");
        assertThat(HtmlReport.render(run)).contains("<h2>Share per replica</h2>", "<td>1 (50%)</td>");
        JsonNode share = SummaryJson.of(JSON, run).at("/workloads/0/replicaShare");
        assertThat(share).hasSize(2);
        assertThat(share.get(1).path("replica").asText()).isEqualTo("worker-service-2");
        assertThat(share.get(1).path("service").asText()).isEqualTo("worker-service");
        assertThat(share.get(1).path("counted").asText()).isEqualTo(ReplicaShare.EXECUTIONS);
        assertThat(share.get(1).path("count").asDouble()).isEqualTo(1.0);
        assertThat(share.get(1).path("share").asDouble()).isEqualTo(0.5);
        assertThat(ConsoleReport.render(run())).as("one instance per service").doesNotContain("Share per replica");
    }
}
