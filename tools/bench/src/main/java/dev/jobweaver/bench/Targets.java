package dev.jobweaver.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The platform's performance targets beside this run's figures: reporting, never asserting. */
public final class Targets {

    /** Burst: completed jobs per second, end to end. */
    public static final double BURST_JOBS_PER_SECOND = 2000;
    /** Burst: the jobs the burst targets are stated for, at least. */
    public static final int BURST_JOBS = 20_000;
    /** Burst: the connections of the client the burst targets are stated for, one request in flight on each. */
    public static final int BURST_CONCURRENCY = 64;
    /** Burst: the median answer to {@code POST /api/jobs}, milliseconds, at most. */
    public static final double BURST_POST_P50_MS = 10;
    /** Burst: the 99th percentile answer to {@code POST /api/jobs}, milliseconds, at most. */
    public static final double BURST_POST_P99_MS = 50;
    /** One client, one job at a time (a burst at concurrency 1): the median answer, milliseconds, at most. */
    public static final double SINGLE_POST_P50_MS = 5;
    /** Steady: the offered rate the latency target is stated for. */
    public static final double STEADY_RATE = 100;
    /** Steady: p99 submit-to-start must stay under this many milliseconds. */
    public static final double STEADY_P99_START_MS = 100;
    /** Steady: COMPLETED visible in the API after the worker's finish, median, milliseconds, at most. */
    public static final double STEADY_FRESH_P50_MS = 100;
    /** Steady: the same at the 99th percentile. */
    public static final double STEADY_FRESH_P99_MS = 250;
    /** Burst: COMPLETED visible in the API after the worker's finish, 99th percentile, milliseconds, at most. */
    public static final double BURST_FRESH_P99_MS = 500;
    /** Sleepers: no-op throughput relative to the pure burst. */
    public static final double SLEEPERS_RATIO = 0.90;
    /** Priorities: throughput of the mixed-priority backlog relative to the pure burst. */
    public static final double PRIORITIES_RATIO = 0.90;
    /** The mixed workload's plain jobs/s at least this share of the plain burst's. */
    public static final double MIXED_RATIO = 0.85;
    /** The queues workload's jobs/s, half of them on a worker pool of their own, at least this share of the burst's. */
    public static final double QUEUES_RATIO = 0.85;
    /** Delayed: the 99th percentile of how late a delayed job starts after its time, milliseconds, at most. */
    public static final double DELAYED_P99_LATE_MS = 100;
    /** RSS per service under load, MiB. */
    public static final double RSS_MB = 200;
    /**
     * RSS of the API under load, MiB: Hibernate Reactive, which its CRUD resources use, adds about 60 MiB of class
     * metadata that the other services do not load (docs/benchmark.md).
     */
    public static final double API_RSS_MB = 280;
    /** Start-to-ready per service, milliseconds. */
    public static final long READY_MS = 3000;

    private Targets() {
    }

    /** The RSS budget of a service instance, by its name ({@code api-service}, {@code scheduler-service-2}, ...). */
    static double rssBudgetMb(String instance) {
        return instance.startsWith(PlatformState.API) ? API_RSS_MB : RSS_MB;
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

    /**
     * The rows for this run; the burst row names the CPU a job cost and the ceiling that sets ({@code cpu}, by the
     * result's label).
     */
    public static List<TargetRow> evaluate(List<WorkloadResult> results, BenchOptions options, PlatformState platform,
                                           List<ResourceSummary> resources, Map<String, CpuPerJob> cpu) {
        List<TargetRow> rows = new ArrayList<>();
        WorkloadResult burst = find(results, Workload.BURST, BURST_CONCURRENCY);
        WorkloadResult single = find(results, Workload.BURST, 1);
        WorkloadResult steady = find(results, Workload.STEADY);
        WorkloadResult sleepers = find(results, Workload.SLEEPERS);
        String burstWhy = burstNotJudged(results, burst);
        String burstGoal = ">= " + fmt(BURST_JOBS_PER_SECOND) + " jobs/s, exactly once (" + BURST_JOBS
                + " jobs, " + BURST_CONCURRENCY + " connections)";
        if (burstWhy == null) {
            rows.add(TargetRow.of("burst throughput", burstGoal,
                    fmt(burst.throughput()) + " jobs/s (visible in the API: " + fmt(burst.visibleThroughput())
                            + "), " + burst.correctness().summary() + ceiling(cpu.get(burst.label())),
                    burst.throughput() >= BURST_JOBS_PER_SECOND && burst.correctness().ok()));
        } else {
            rows.add(TargetRow.notMeasured("burst throughput", burstGoal, burst == null ? burstWhy
                    : fmt(burst.throughput()) + " jobs/s, " + burstWhy + ceiling(cpu.get(burst.label()))));
        }
        String postGoal = "POST p50 <= " + fmt(BURST_POST_P50_MS) + " ms, p99 <= " + fmt(BURST_POST_P99_MS) + " ms";
        if (burstWhy == null) {
            rows.add(TargetRow.of("burst POST latency", postGoal, pair(burst.accept()),
                    burst.accept().p50() <= BURST_POST_P50_MS && burst.accept().p99() <= BURST_POST_P99_MS));
        } else {
            rows.add(TargetRow.notMeasured("burst POST latency", postGoal,
                    burst == null ? burstWhy : pair(burst.accept()) + ", " + burstWhy));
        }
        String freshGoal = "COMPLETED visible p99 <= " + fmt(BURST_FRESH_P99_MS) + " ms after the worker's finish";
        if (burstWhy != null) {
            rows.add(TargetRow.notMeasured("burst status freshness", freshGoal,
                    burst == null ? burstWhy : freshness(burst) + ", " + burstWhy));
        } else if (burst.finishToVisible().count() == 0) {
            rows.add(TargetRow.notMeasured("burst status freshness", freshGoal, "no job followed to its status"));
        } else {
            rows.add(TargetRow.of("burst status freshness", freshGoal, freshness(burst),
                    burst.finishToVisible().p99() <= BURST_FRESH_P99_MS));
        }
        String singleGoal = "POST p50 <= " + fmt(SINGLE_POST_P50_MS) + " ms, one job at a time";
        if (single == null) {
            rows.add(TargetRow.notMeasured("single-client POST latency", singleGoal,
                    "burst not run at concurrency 1 (--concurrency 1,...)"));
        } else {
            rows.add(TargetRow.of("single-client POST latency", singleGoal, pair(single.accept()) + " over "
                    + single.accept().count() + " jobs", single.accept().p50() <= SINGLE_POST_P50_MS));
        }
        String steadyGoal = "p99 submit-to-start < " + fmt(STEADY_P99_START_MS) + " ms at " + fmt(STEADY_RATE) + "/s";
        String steadyFreshGoal = "COMPLETED visible p50 <= " + fmt(STEADY_FRESH_P50_MS) + " ms, p99 <= "
                + fmt(STEADY_FRESH_P99_MS) + " ms after the worker's finish at " + fmt(STEADY_RATE) + "/s";
        if (steady == null) {
            rows.add(TargetRow.notMeasured("steady latency", steadyGoal, "steady not run"));
            rows.add(TargetRow.notMeasured("steady status freshness", steadyFreshGoal, "steady not run"));
        } else if (options.rate() < STEADY_RATE) {
            rows.add(TargetRow.notMeasured("steady latency", steadyGoal,
                    "p99 " + fmt(steady.toStart().p99()) + " ms, but at " + fmt(options.rate()) + "/s"));
            rows.add(TargetRow.notMeasured("steady status freshness", steadyFreshGoal,
                    freshness(steady) + ", but at " + fmt(options.rate()) + "/s"));
        } else {
            rows.add(TargetRow.of("steady latency", steadyGoal, "p99 " + fmt(steady.toStart().p99()) + " ms at "
                    + fmt(options.rate()) + "/s", steady.toStart().p99() < STEADY_P99_START_MS));
            if (steady.finishToVisible().count() == 0) {
                rows.add(TargetRow.notMeasured("steady status freshness", steadyFreshGoal,
                        "no job followed to its status"));
            } else {
                rows.add(TargetRow.of("steady status freshness", steadyFreshGoal, freshness(steady),
                        steady.finishToVisible().p50() <= STEADY_FRESH_P50_MS
                                && steady.finishToVisible().p99() <= STEADY_FRESH_P99_MS));
            }
        }
        String sleepersGoal = "no-op throughput >= " + fmt(SLEEPERS_RATIO * 100) + "% of burst";
        WorkloadResult reference = find(results, Workload.BURST, options.concurrency());
        double baseline = reference != null ? reference.throughput() : options.baseline();
        if (sleepers == null) {
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
        if (options.workloads().contains(Workload.PRIORITIES)) {
            rows.add(priorities(find(results, Workload.PRIORITIES), baseline));
        }
        if (options.workloads().contains(Workload.MIXED)) {
            rows.add(mixed(find(results, Workload.MIXED), baseline));
        }
        if (options.workloads().contains(Workload.PURGE)) {
            rows.add(PurgeRun.target(find(results, Workload.PURGE), options.rate()));
        }
        if (options.workloads().contains(Workload.QUEUES)) {
            rows.add(queues(find(results, Workload.QUEUES), baseline));
        }
        if (options.workloads().contains(Workload.DELAYED)) {
            rows.add(delayed(find(results, Workload.DELAYED)));
        }
        for (WorkloadResult r : results) {
            if (r.ranJobs()) {
                rows.add(TargetRow.of(r.label() + " correctness", correctnessGoal(r), r.correctness().summary(),
                        r.correctness().ok()));
            } else if (r.available() && r.schedules() != null) {
                rows.add(TargetRow.of(r.label() + " correctness", "every tick due in the window exactly one job",
                        r.correctness().summary().replace("as expected", "ticks as expected"),
                        r.correctness().ok()));
            } else if (r.available() && r.workflows() != null) {
                rows.add(TargetRow.of(r.label() + " correctness", "every run COMPLETED, every node's job executed "
                        + "once", r.correctness().summary().replace("as expected", "runs as expected"),
                        r.correctness().ok()));
            }
        }
        for (PlatformState.Instance instance : platform.instances()) {
            ResourceSummary usage = resources.stream().filter(s -> s.process().equals(instance.name())).findFirst()
                    .orElse(null);
            double budget = rssBudgetMb(instance.name());
            String goal = "<= " + fmt(budget) + " MB";
            if (usage == null) {
                rows.add(TargetRow.notMeasured(instance.name() + " RSS", goal, "not sampled"));
            } else {
                rows.add(TargetRow.of(instance.name() + " RSS", goal, "max " + fmt(usage.maxRssMb()) + " MB",
                        usage.maxRssMb() <= budget));
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

    /**
     * The priorities row: the mixed backlog's jobs/s against the burst's ({@code baseline}, NaN when there is none),
     * every job COMPLETED once; the measured column adds each level's median submit-to-start.
     */
    static TargetRow priorities(WorkloadResult priorities, double baseline) {
        String goal = "mixed priorities >= " + fmt(PRIORITIES_RATIO * 100) + "% of the burst's jobs/s, every job "
                + "COMPLETED once";
        if (priorities == null) {
            return TargetRow.notMeasured("priorities throughput", goal, "priorities unavailable (see Notes)");
        }
        StringBuilder levels = new StringBuilder();
        for (PriorityLevels.Level level : priorities.byPriority()) {
            levels.append(levels.isEmpty() ? "; start p50 " : ", ").append(level.priority()).append(' ')
                    .append(fmt(level.toStart().p50())).append(" ms");
        }
        String correctness = priorities.correctness().summary();
        if (Double.isNaN(baseline)) {
            return TargetRow.notMeasured("priorities throughput", goal, fmt(priorities.throughput())
                    + " jobs/s, " + correctness + "; no burst figure (run burst too or pass --baseline)" + levels);
        }
        double ratio = priorities.throughput() / baseline;
        return TargetRow.of("priorities throughput", goal, fmt(priorities.throughput()) + " jobs/s = "
                        + fmt(ratio * 100) + "% of " + fmt(baseline) + ", " + correctness + levels,
                ratio >= PRIORITIES_RATIO && priorities.correctness().ok());
    }

    /**
     * The mixed row: the plain jobs' jobs/s among the features against the burst's ({@code baseline}, NaN when there is
     * none); its correctness has a row of its own.
     */
    static TargetRow mixed(WorkloadResult mixed, double baseline) {
        String goal = "burst with features in use >= " + fmt(MIXED_RATIO * 100) + "% of the burst's jobs/s";
        if (mixed == null) {
            return TargetRow.notMeasured("mixed throughput", goal, "mixed unavailable (see Notes)");
        }
        if (Double.isNaN(baseline)) {
            return TargetRow.notMeasured("mixed throughput", goal, fmt(mixed.throughput())
                    + " jobs/s; no burst figure (run burst too or pass --baseline)");
        }
        double ratio = mixed.throughput() / baseline;
        return TargetRow.of("mixed throughput", goal, fmt(mixed.throughput()) + " jobs/s = " + fmt(ratio * 100)
                + "% of " + fmt(baseline), ratio >= MIXED_RATIO);
    }

    /**
     * The queues row: the run's jobs/s against the burst's ({@code baseline}, NaN when there is none), and no
     * execution row written by a worker outside its job's queue's pool; its correctness has a row of its own.
     */
    static TargetRow queues(WorkloadResult queues, double baseline) {
        String goal = "queues throughput >= " + fmt(QUEUES_RATIO * 100) + "% of the burst's jobs/s, zero runs outside "
                + "their queue's pool";
        if (queues == null || queues.queues() == null) {
            return TargetRow.notMeasured("queues throughput", goal, "queues unavailable (see Notes)");
        }
        QueueRuns q = queues.queues();
        String isolation = q.measured() ? q.outside() + " of " + q.runs() + " runs outside their queue's pool"
                : "execution rows not read";
        if (Double.isNaN(baseline) || !q.measured()) {
            return TargetRow.notMeasured("queues throughput", goal, fmt(queues.throughput()) + " jobs/s, " + isolation
                    + (Double.isNaN(baseline) ? "; no burst figure (run burst too or pass --baseline)" : ""));
        }
        double ratio = queues.throughput() / baseline;
        return TargetRow.of("queues throughput", goal, fmt(queues.throughput()) + " jobs/s = " + fmt(ratio * 100)
                + "% of " + fmt(baseline) + ", " + isolation, ratio >= QUEUES_RATIO && q.outside() == 0);
    }

    /** What the correctness row of {@code r}, a run of submitted jobs, asks of it. */
    private static String correctnessGoal(WorkloadResult r) {
        if (r.limits() != null) {
            return "every job as expected, exactly once, never more than maxRunning " + r.limits().bindingLimit()
                    + " running";
        }
        if (r.queues() != null) {
            return "every job as expected, exactly once, every execution row (judged too) by a worker of its queue";
        }
        return "every job as expected, exactly once";
    }

    /** The delayed row: p99 lateness within its bound and no job early, over jobs that all started. */
    static TargetRow delayed(WorkloadResult delayed) {
        String goal = "delayed jobs start within " + fmt(DELAYED_P99_LATE_MS) + " ms of their time at the p99, none "
                + "early (more than " + fmt(Lateness.EARLY_TOLERANCE_MS) + " ms before it)";
        if (delayed == null) {
            return TargetRow.notMeasured("delayed start", goal, "delayed unavailable (see Notes)");
        }
        Lateness late = delayed.lateness();
        if (late.started() == 0) {
            return TargetRow.notMeasured("delayed start", goal, "no delayed job started");
        }
        String measured = "p50 " + fmt(late.millis().p50()) + " ms, p99 " + fmt(late.millis().p99()) + " ms, max "
                + fmt(late.millis().max()) + " ms; " + late.early() + " early (earliest " + fmt(late.earliestMs())
                + " ms); " + late.started() + " of " + late.delayed() + " started";
        return TargetRow.of("delayed start", goal, measured, late.millis().p99() <= DELAYED_P99_LATE_MS
                && late.early() == 0 && late.started() == late.delayed());
    }

    /** The first available result of {@code workload}, or null. */
    private static WorkloadResult find(List<WorkloadResult> results, Workload workload) {
        return results.stream().filter(r -> r.available() && r.workload() == workload).findFirst().orElse(null);
    }

    /** The available result of {@code workload} at {@code concurrency}, or null. */
    private static WorkloadResult find(List<WorkloadResult> results, Workload workload, int concurrency) {
        return results.stream().filter(r -> r.available() && r.workload() == workload
                && r.concurrency() == concurrency).findFirst().orElse(null);
    }

    /**
     * Why the burst targets cannot be judged from {@code burst} (the available burst at {@link #BURST_CONCURRENCY}, or
     * null), or null when they can: it must have run, with at least {@link #BURST_JOBS} jobs.
     */
    private static String burstNotJudged(List<WorkloadResult> results, WorkloadResult burst) {
        if (burst == null) {
            boolean other = results.stream().anyMatch(r -> r.workload() == Workload.BURST && r.available());
            return other ? "burst not run at concurrency " + BURST_CONCURRENCY : "burst not run";
        }
        if (burst.submission().offered() < BURST_JOBS) {
            return "but over " + burst.submission().offered() + " jobs, not " + BURST_JOBS;
        }
        return null;
    }

    /** {@code p50 3.2 ms, p99 12 ms}. */
    private static String pair(Percentiles p) {
        return "p50 " + fmt(p.p50()) + " ms, p99 " + fmt(p.p99()) + " ms";
    }

    /** {@code p50 41 ms, p99 88 ms over 1000 jobs}: the worker's finish to COMPLETED visible in the API. */
    private static String freshness(WorkloadResult r) {
        return pair(r.finishToVisible()) + " over " + r.finishToVisible().count() + " jobs";
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
