package dev.jobweaver.bench;

import static dev.jobweaver.bench.Targets.fmt;

import java.util.List;

/**
 * The tables of the job-control workloads, for the console and {@code report.html}: submit-to-start per priority
 * level, lateness of delayed jobs, idle CPU without and with future rows, cancels. Each is null when no run has its
 * figures.
 */
public final class ControlTables {

    /** The caption above {@link #byPriority}. */
    static final String PRIORITY_TITLE = "Submit-to-start by priority (ms, to the worker's started_at; levels as "
            + "the bench sent them)";
    /** The caption above {@link #lateness}. */
    static final String LATENESS_TITLE = "Lateness of delayed jobs: started_at - due time (ms; negative: early)";

    /** The caption above {@link #cancelTimes}. */
    static final String CANCEL_TITLE = "Cancel (ms): how long POST /api/jobs/{id}/cancel took to answer 202, and "
            + "from the 202's arrival at the bench to CANCELLED in the scheduler's table, to CANCELLED visible in the "
            + "API (lookups every " + FreshnessProbe.POLL_MS + " ms), to the worker's interrupt of the run";
    /** The caption above {@link #cancelCounts}. */
    static final String CANCEL_COUNTS_TITLE = "Cancel: what did not go as a cancel must";

    private ControlTables() {
    }

    /** The runs that cancelled some job. */
    private static List<WorkloadResult> cancelled(List<WorkloadResult> results) {
        return results.stream().filter(r -> r.ranJobs() && r.cancels().measured()).toList();
    }

    /** The runs with figures per priority level. */
    private static List<WorkloadResult> prioritized(List<WorkloadResult> results) {
        return results.stream().filter(r -> r.ranJobs() && !r.byPriority().isEmpty()).toList();
    }

    /** The runs with delayed jobs. */
    private static List<WorkloadResult> delayed(List<WorkloadResult> results) {
        return results.stream().filter(r -> r.ranJobs() && r.lateness().measured()).toList();
    }

    /** One row per group of the cancel run and figure: the cancel's answer, then to scheduler, visible, interrupt. */
    static TextTable cancelTimes(List<WorkloadResult> results) {
        TextTable table = new TextTable("workload", "group", "figure", "count", "p50", "p90", "p99", "max");
        return table.forEachOrNull(cancelled(results), r -> {
            for (Cancels.Group g : r.cancels().groups()) {
                String group = g.kind().label();
                row(table, r.label(), group, "request to 202", g.answer());
                row(table, r.label(), group, "202 to CANCELLED in the scheduler", g.toScheduler());
                row(table, r.label(), group, "202 to CANCELLED visible in the API", g.toVisible());
                if (g.kind() == Cancels.Kind.RUNNING) {
                    row(table, r.label(), group, "202 to the worker's interrupt", g.toInterrupt());
                }
            }
        });
    }

    private static void row(TextTable table, String label, String group, String to, Percentiles p) {
        table.row(label, group, to, Integer.toString(p.count()), fmt(p.p50()), fmt(p.p90()), fmt(p.p99()),
                fmt(p.max()));
    }

    /** One row per group of the cancel run: its jobs and what went wrong, "-" where a count does not apply. */
    static TextTable cancelCounts(List<WorkloadResult> results) {
        TextTable table = new TextTable("workload", "group", "jobs", "cancel not 202", "not CANCELLED",
                "waiting jobs that ran", "runs not ended " + Cancels.WORKER_CANCELLED);
        return table.forEachOrNull(cancelled(results), r -> {
            for (Cancels.Group g : r.cancels().groups()) {
                table.row(r.label(), g.kind().label(), Integer.toString(g.jobs()), Integer.toString(g.notAccepted()),
                        Integer.toString(g.notCancelled()), g.ran() < 0 ? "-" : Integer.toString(g.ran()),
                        g.notInterrupted() < 0 ? "-" : Integer.toString(g.notInterrupted()));
            }
        });
    }

    /** One row per run and priority level. */
    static TextTable byPriority(List<WorkloadResult> results) {
        TextTable table = new TextTable("workload", "priority", "accepted", "completed", "p50", "p90", "p99", "max",
                "recorded otherwise");
        return table.forEachOrNull(prioritized(results), r -> {
            for (PriorityLevels.Level level : r.byPriority()) {
                Percentiles p = level.toStart();
                table.row(r.label(), level.priority().name(), Integer.toString(level.accepted()),
                        Integer.toString(level.completed()), fmt(p.p50()), fmt(p.p90()), fmt(p.p99()), fmt(p.max()),
                        Integer.toString(level.recordedOtherwise()));
            }
        });
    }

    /** One row per run with delayed jobs. */
    static TextTable lateness(List<WorkloadResult> results) {
        TextTable table = new TextTable("workload", "delayed", "started", "p50", "p90", "p99", "max", "earliest",
                "early (> " + fmt(Lateness.EARLY_TOLERANCE_MS) + " ms)", "due time from runAt / send + delayMs");
        return table.forEachOrNull(delayed(results), r -> {
            Lateness late = r.lateness();
            Percentiles p = late.millis();
            table.row(r.label(), Integer.toString(late.delayed()), Integer.toString(late.started()), fmt(p.p50()),
                    fmt(p.p90()), fmt(p.p99()), fmt(p.max()), fmt(late.earliestMs()), Integer.toString(late.early()),
                    late.dueFromPlatform() + " / " + late.dueFromClient());
        });
    }

    /** The caption above {@link #idle}'s table, naming the rows and the window. */
    static String idleTitle(IdleCpu idle) {
        return "Idle CPU (ms of CPU per second, from /proc, over " + fmt(idle.window().toMillis() / 1000.0)
                + " s each): without and with " + String.format(java.util.Locale.ROOT, "%,d", idle.rows())
                + " PENDING rows due in " + idle.dueIn().toHours() + " h in jobweaver_scheduler.job_executions "
                + "(inserted directly, not through the API, in " + fmt(idle.insertSeconds()) + " s with the vacuum "
                + "after; deleted after: " + (idle.deleted() < 0 ? "failed" : Integer.toString(idle.deleted())) + ")";
    }

    /** One row per process of the delayed-idle run, or null without one. */
    static TextTable idle(List<WorkloadResult> results) {
        IdleCpu idle = idleOf(results);
        if (idle == null) {
            return null;
        }
        TextTable table = new TextTable("process", "without rows", "with rows", "difference");
        for (IdleCpu.ProcessCpu p : idle.processes()) {
            table.row(p.process(), fmt(p.emptyMsPerSecond()), fmt(p.loadedMsPerSecond()),
                    fmt(p.loadedMsPerSecond() - p.emptyMsPerSecond()));
        }
        return table;
    }

    /** The delayed-idle measurement of {@code results}, or null. */
    static IdleCpu idleOf(List<WorkloadResult> results) {
        return results.stream().filter(r -> r.available() && r.idle() != null).map(WorkloadResult::idle).findFirst()
                .orElse(null);
    }
}
