package dev.jobweaver.local.bench;

import static dev.jobweaver.local.bench.Fixtures.completed;
import static dev.jobweaver.local.bench.Fixtures.submission;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TargetsTest {

    private static BenchOptions options(String... args) {
        return BenchOptions.parse(List.of(args), Path.of("/r"));
    }

    /** {@code n} no-op jobs submitted at 0, completing evenly until {@code lastMs}, each starting after startMs. */
    private static WorkloadResult workload(Workload w, int n, long lastMs, long startMs) {
        List<JobRecord> jobs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            jobs.add(completed(JobKind.NOOP, 0, startMs, lastMs * (i + 1) / n));
        }
        return WorkloadResult.of(w, submission(n), jobs, "");
    }

    private static TargetRow row(List<TargetRow> rows, String target) {
        return rows.stream().filter(r -> r.target().equals(target)).findFirst().orElseThrow();
    }

    @Test
    void burstPassesAtTwoThousandPerSecondAndMissesBelow() {
        List<TargetRow> fast = Targets.evaluate(List.of(workload(Workload.BURST, 2000, 1000, 1)), options(),
                Fixtures.platform(), List.of());
        assertThat(row(fast, "burst throughput").verdict()).isEqualTo("pass");
        List<TargetRow> slow = Targets.evaluate(List.of(workload(Workload.BURST, 1000, 1000, 1)), options(),
                Fixtures.platform(), List.of());
        assertThat(row(slow, "burst throughput").verdict()).isEqualTo("miss");
        assertThat(row(slow, "burst throughput").measured()).startsWith("1000 jobs/s");
        assertThat(row(slow, "burst throughput").measured()).contains("(visible in the API: 998)");
    }

    @Test
    void steadyJudgesP99SubmitToStart() {
        assertThat(row(Targets.evaluate(List.of(workload(Workload.STEADY, 100, 1000, 40)), options(),
                Fixtures.platform(), List.of()), "steady latency").verdict()).isEqualTo("pass");
        assertThat(row(Targets.evaluate(List.of(workload(Workload.STEADY, 100, 1000, 140)), options(),
                Fixtures.platform(), List.of()), "steady latency").verdict()).isEqualTo("miss");
        assertThat(row(Targets.evaluate(List.of(workload(Workload.STEADY, 100, 1000, 40)), options("--rate", "50"),
                Fixtures.platform(), List.of()), "steady latency").verdict()).isEqualTo("n/a");
    }

    @Test
    void sleepersCompareWithBurstOrTheBaseline() {
        List<JobRecord> jobs = new ArrayList<>();
        for (int i = 0; i < 95; i++) {
            jobs.add(completed(JobKind.NOOP, 0, 1, 1000));
        }
        jobs.add(completed(JobKind.SLEEPER, 0, 1, 5000));
        WorkloadResult sleepers = WorkloadResult.of(Workload.SLEEPERS, submission(96), jobs, "");
        // 95 no-op jobs/s against a burst of 100/s: 95%
        List<TargetRow> rows = Targets.evaluate(List.of(workload(Workload.BURST, 100, 1000, 1), sleepers), options(),
                Fixtures.platform(), List.of());
        assertThat(row(rows, "sleepers no-op throughput").verdict()).isEqualTo("pass");
        assertThat(row(rows, "sleepers no-op throughput").measured()).contains("95% of 100");
        List<TargetRow> baseline = Targets.evaluate(List.of(sleepers), options("--baseline", "200"),
                Fixtures.platform(), List.of());
        assertThat(row(baseline, "sleepers no-op throughput").verdict()).isEqualTo("miss");
        List<TargetRow> none = Targets.evaluate(List.of(sleepers), options(), Fixtures.platform(), List.of());
        assertThat(row(none, "sleepers no-op throughput").verdict()).isEqualTo("n/a");
    }

    @Test
    void rssAndReadyPerInstance() {
        List<ResourceSummary> resources = List.of(new ResourceSummary("api-service", 3, 180, 150, 20, 40),
                new ResourceSummary("scheduler-service", 3, 250, 200, 20, 40));
        List<TargetRow> rows = Targets.evaluate(List.of(), options(), Fixtures.platform(), resources);
        assertThat(row(rows, "api-service RSS").verdict()).isEqualTo("pass");
        assertThat(row(rows, "scheduler-service RSS").verdict()).isEqualTo("miss");
        assertThat(row(rows, "worker-service RSS").verdict()).isEqualTo("n/a");
        assertThat(row(rows, "api-service start-to-ready").verdict()).isEqualTo("pass");
        assertThat(row(rows, "scheduler-service start-to-ready").verdict()).isEqualTo("miss");
        assertThat(row(rows, "worker-service start-to-ready").verdict()).isEqualTo("n/a");
        assertThat(row(rows, "burst throughput").verdict()).isEqualTo("n/a");
    }

    @Test
    void correctnessRowPerRunWorkload() {
        List<TargetRow> rows = Targets.evaluate(List.of(WorkloadResult.unavailable(Workload.RETRIES, "x"),
                workload(Workload.BURST, 10, 1000, 1)), options(), Fixtures.platform(), List.of());
        assertThat(row(rows, "burst correctness").verdict()).isEqualTo("pass");
        assertThat(rows).noneMatch(r -> r.target().equals("retries correctness"));
    }

    @Test
    void figuresAreFormattedForPeople() {
        assertThat(Targets.fmt(2345.678)).isEqualTo("2346");
        assertThat(Targets.fmt(42.25)).isEqualTo("42.3");
        assertThat(Targets.fmt(3.14159)).isEqualTo("3.14");
        assertThat(Targets.fmt(7)).isEqualTo("7");
        assertThat(Targets.fmt(Double.NaN)).isEqualTo("-");
    }
}
