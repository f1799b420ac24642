package dev.jobweaver.local.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The platform's performance targets beside this run's figures: reporting, never asserting. */
public final class Targets {

    /** Burst: completed jobs per second, end to end. */
    public static final double BURST_JOBS_PER_SECOND = 2000;
    /** Steady: the offered rate the latency target is stated for. */
    public static final double STEADY_RATE = 100;
    /** Steady: p99 submit-to-start must stay under this many milliseconds. */
    public static final double STEADY_P99_START_MS = 100;
    /** Sleepers: no-op throughput relative to the pure burst. */
    public static final double SLEEPERS_RATIO = 0.90;
    /** RSS per service under load, MiB. */
    public static final double RSS_MB = 200;
    /** Start-to-ready per service, milliseconds. */
    public static final long READY_MS = 3000;

    private Targets() {
    }

    /** {@code "; CPU 1.33 ms a job, so at most 1,504 jobs/s"}, or nothing without a figure. */
    static String ceiling(CpuPerJob cpu) {
        if (cpu == null || !cpu.measured() || Double.isNaN(cpu.ceilingJobsPerSecond())) {
            return "";
        }
        return "; CPU " + fmt(cpu.platformMs() + cpu.benchMs()) + " ms a job (bench included), so at most "
                + fmt(cpu.ceilingJobsPerSecond()) + " jobs/s on these cores";
    }

    /** The rows for this run, without CPU per job. */
    public static List<TargetRow> evaluate(List<WorkloadResult> results, BenchOptions options, PlatformState platform,
                                           List<ResourceSummary> resources) {
        return evaluate(results, options, platform, resources, Map.of());
    }

    /** The rows for this run; the burst row names the CPU a job cost and the ceiling that sets ({@code cpu}). */
    public static List<TargetRow> evaluate(List<WorkloadResult> results, BenchOptions options, PlatformState platform,
                                           List<ResourceSummary> resources, Map<Workload, CpuPerJob> cpu) {
        List<TargetRow> rows = new ArrayList<>();
        WorkloadResult burst = find(results, Workload.BURST);
        WorkloadResult steady = find(results, Workload.STEADY);
        WorkloadResult sleepers = find(results, Workload.SLEEPERS);
        String burstGoal = ">= " + fmt(BURST_JOBS_PER_SECOND) + " jobs/s, exactly once";
        if (burst != null && burst.available()) {
            rows.add(TargetRow.of("burst throughput", burstGoal,
                    fmt(burst.throughput()) + " jobs/s (visible in the API: " + fmt(burst.visibleThroughput())
                            + "), " + burst.correctness().summary() + ceiling(cpu.get(Workload.BURST)),
                    burst.throughput() >= BURST_JOBS_PER_SECOND && burst.correctness().ok()));
        } else {
            rows.add(TargetRow.notMeasured("burst throughput", burstGoal, "burst not run"));
        }
        String steadyGoal = "p99 submit-to-start < " + fmt(STEADY_P99_START_MS) + " ms at " + fmt(STEADY_RATE) + "/s";
        if (steady == null || !steady.available()) {
            rows.add(TargetRow.notMeasured("steady latency", steadyGoal, "steady not run"));
        } else if (options.rate() < STEADY_RATE) {
            rows.add(TargetRow.notMeasured("steady latency", steadyGoal,
                    "p99 " + fmt(steady.toStart().p99()) + " ms, but at " + fmt(options.rate()) + "/s"));
        } else {
            rows.add(TargetRow.of("steady latency", steadyGoal, "p99 " + fmt(steady.toStart().p99()) + " ms at "
                    + fmt(options.rate()) + "/s", steady.toStart().p99() < STEADY_P99_START_MS));
        }
        String sleepersGoal = "no-op throughput >= " + fmt(SLEEPERS_RATIO * 100) + "% of burst";
        double baseline = burst != null && burst.available() ? burst.throughput() : options.baseline();
        if (sleepers == null || !sleepers.available()) {
            rows.add(TargetRow.notMeasured("sleepers no-op throughput", sleepersGoal, "sleepers not run"));
        } else if (Double.isNaN(baseline)) {
            rows.add(TargetRow.notMeasured("sleepers no-op throughput", sleepersGoal,
                    fmt(sleepers.noopThroughput()) + " jobs/s; no burst figure (run burst too or pass --baseline)"));
        } else {
            double ratio = sleepers.noopThroughput() / baseline;
            rows.add(TargetRow.of("sleepers no-op throughput", sleepersGoal,
                    fmt(sleepers.noopThroughput()) + " jobs/s = " + fmt(ratio * 100) + "% of " + fmt(baseline),
                    ratio >= SLEEPERS_RATIO));
        }
        for (WorkloadResult r : results) {
            if (r.available()) {
                rows.add(TargetRow.of(r.workload().cliName() + " correctness", "every job as expected, exactly once",
                        r.correctness().summary(), r.correctness().ok()));
            }
        }
        for (PlatformState.Instance instance : platform.instances()) {
            ResourceSummary usage = resources.stream().filter(s -> s.process().equals(instance.name())).findFirst()
                    .orElse(null);
            String goal = "<= " + fmt(RSS_MB) + " MB";
            if (usage == null) {
                rows.add(TargetRow.notMeasured(instance.name() + " RSS", goal, "not sampled"));
            } else {
                rows.add(TargetRow.of(instance.name() + " RSS", goal, "max " + fmt(usage.maxRssMb()) + " MB",
                        usage.maxRssMb() <= RSS_MB));
            }
        }
        for (PlatformState.Instance instance : platform.instances()) {
            String goal = "<= " + fmt(READY_MS / 1000.0) + " s";
            if (instance.readyMs() < 0) {
                rows.add(TargetRow.notMeasured(instance.name() + " start-to-ready", goal, "not recorded"));
            } else {
                rows.add(TargetRow.of(instance.name() + " start-to-ready", goal,
                        fmt(instance.readyMs() / 1000.0) + " s", instance.readyMs() <= READY_MS));
            }
        }
        return rows;
    }

    private static WorkloadResult find(List<WorkloadResult> results, Workload workload) {
        return results.stream().filter(r -> r.workload() == workload).findFirst().orElse(null);
    }

    /** A figure for people: whole numbers as such, else 0 decimals from 100, 1 from 10, 2 below; "-" for NaN. */
    public static String fmt(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return "-";
        }
        double abs = Math.abs(value);
        String pattern = abs >= 100 || value == Math.rint(value) ? "%.0f" : abs >= 10 ? "%.1f" : "%.2f";
        return String.format(Locale.ROOT, pattern, value);
    }
}
