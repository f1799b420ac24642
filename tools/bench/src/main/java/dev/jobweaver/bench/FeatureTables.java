package dev.jobweaver.bench;

import static dev.jobweaver.bench.Targets.fmt;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The tables of the notify, schedules, workflow and limits workloads, for the console and {@code report.html}: how
 * soon webhooks arrive and what did not; ticks due against jobs made, tick lag, and what the schedules cost each
 * process; how soon a fan-out's fan-in starts and how many diamond runs a second complete; the burst under a tenant
 * limit beside the plain burst, and the jobs under a limit that binds. Each is null when no run has its figures.
 */
public final class FeatureTables {

    /** The caption above {@link #notifyTimes}. */
    static final String NOTIFY_TITLE = "Notify (ms): from the job's finish (the webhook body's finishedAt) to the "
            + "first delivery with a good signature at the bench's receiver, and how long POST /api/subscriptions "
            + "took to answer 201";
    /** The caption above {@link #notifyCounts}. */
    static final String NOTIFY_COUNTS_TITLE = "Notify: deliveries, and what did not arrive as a subscribed job's "
            + "webhook must";
    /** The caption above {@link #scheduleTimes}. */
    static final String SCHEDULE_TITLE = "Schedules (ms): how long POST /api/schedules took to answer 201, from "
            + "each tick in the window (jobs.scheduled_for) to its job stored in the API (jobs.created_at), and the "
            + "scheduler's own tick lag (fired - scheduled for; quantiles at the window's end, count and max over it)";
    /** The caption above {@link #scheduleCounts}. */
    static final String SCHEDULE_COUNTS_TITLE = "Schedules: ticks due in the window against the jobs in "
            + "jobweaver_api.jobs";

    private FeatureTables() {
    }

    /** One row per notify run and figure: finish to receipt, then the subscription's answer. */
    static TextTable notifyTimes(List<WorkloadResult> results) {
        TextTable table = timesTable();
        return table.forEachOrNull(notified(results), r -> {
            Notifications n = r.notifications();
            row(table, r.label(), "finish to webhook received", n.finishToReceipt());
            row(table, r.label(), "subscription request to 201", n.subscribeAnswer());
        });
    }

    /** A table of one row per run and figure, with the figure's percentiles; {@link #row} adds them. */
    private static TextTable timesTable() {
        return new TextTable("workload", "figure", "count", "p50", "p90", "p95", "p99", "max");
    }

    private static void row(TextTable table, String label, String figure, Percentiles p) {
        table.row(label, figure, Integer.toString(p.count()), fmt(p.p50()), fmt(p.p90()), fmt(p.p95()), fmt(p.p99()),
                fmt(p.max()));
    }

    /** One row per notify run: its jobs, deliveries and problems, and the two rates. */
    static TextTable notifyCounts(List<WorkloadResult> results) {
        TextTable table = new TextTable("workload", "jobs", "subscribed", "completed", "delivered", "missing",
                "finished before subscribed", "deliveries", "duplicates (same id)", "bad signatures",
                "for no job of ours", "deliveries/s", "subscriptions/s");
        return table.forEachOrNull(notified(results), r -> {
            Notifications n = r.notifications();
            table.row(r.label(), Integer.toString(n.jobs()), Integer.toString(n.subscribed()),
                    Integer.toString(n.completed()), Integer.toString(n.delivered()), Integer.toString(n.missing()),
                    Integer.toString(n.finishedBeforeSubscribed()), Integer.toString(n.deliveries()),
                    n.duplicates() + " (" + n.sameId() + ")", Integer.toString(n.badSignatures()),
                    Integer.toString(n.strays()), fmt(n.deliveriesPerSecond()), fmt(n.subscriptionsPerSecond()));
        });
    }

    private static List<WorkloadResult> notified(List<WorkloadResult> results) {
        return results.stream().filter(r -> r.ranJobs() && r.notifications().measured()).toList();
    }

    /** The available schedules runs that created some schedule. */
    private static List<WorkloadResult> ticked(List<WorkloadResult> results) {
        return results.stream().filter(r -> r.available() && r.schedules() != null && r.schedules().measured())
                .toList();
    }

    /** One row per schedules run and figure: the creation's answer, tick to job stored, the scheduler's lag. */
    static TextTable scheduleTimes(List<WorkloadResult> results) {
        TextTable table = timesTable();
        return table.forEachOrNull(ticked(results), r -> {
            ScheduleTicks t = r.schedules();
            row(table, r.label(), "schedule request to 201", t.createAnswer());
            row(table, r.label(), "tick to job stored in the API", t.tickLag());
            ScheduleTicks.SchedulerMetric m = t.metric();
            table.row(r.label(), "scheduler's tick lag (its metric)", fmt(m.count()), fmt(quantile(m, 0.5)),
                    fmt(quantile(m, 0.9)), fmt(quantile(m, 0.95)), fmt(quantile(m, 0.99)), fmt(m.maxMs()));
        });
    }

    /** The published quantile {@code q} of {@code metric} in milliseconds; NaN when it is not published. */
    static double quantile(ScheduleTicks.SchedulerMetric metric, double q) {
        for (Map.Entry<String, Double> e : metric.quantilesMs().entrySet()) {
            try {
                if (Math.abs(Double.parseDouble(e.getKey()) - q) < 1e-9) {
                    return e.getValue();
                }
            } catch (NumberFormatException ignored) {
                // a label that is no number names no quantile
            }
        }
        return Double.NaN;
    }

    /** One row per schedules run: schedules, the creation rate, ticks due and how they ended, the removal. */
    static TextTable scheduleCounts(List<WorkloadResult> results) {
        TextTable table = new TextTable("workload", "schedules", "not created", "created/s", "window s", "ticks due",
                "one job", "missing", "duplicated", "jobs at no tick", "scheduler's ticks by outcome",
                "deleted or paused");
        return table.forEachOrNull(ticked(results), r -> {
            ScheduleTicks t = r.schedules();
            String outcomes = t.metric().ticksByOutcome().isEmpty() ? "-" : t.metric().ticksByOutcome().entrySet()
                    .stream().map(e -> e.getKey() + " " + fmt(e.getValue())).collect(Collectors.joining(", "));
            table.row(r.label(), Integer.toString(t.schedules()), Integer.toString(t.notCreated()),
                    fmt(t.creationPerSecond()), fmt(t.window().toMillis() / 1000.0), Integer.toString(t.expectedTicks()),
                    Integer.toString(t.asExpected()), Integer.toString(t.missing()), Integer.toString(t.duplicated()),
                    Integer.toString(t.offGrid()), outcomes, Integer.toString(t.removed()));
        });
    }

    /** The caption above {@link #scheduleUse}'s table, naming the window. */
    static String scheduleUseTitle(ScheduleTicks ticks) {
        return "Schedules: CPU (% of one core, from /proc utime + stime) and largest RSS (MB, every second) per "
                + "process, over " + fmt(ticks.window().toMillis() / 1000.0) + " s before any schedule and as long "
                + "with " + String.format(java.util.Locale.ROOT, "%,d", ticks.schedules()) + " ticking every "
                + ticks.interval().toSeconds() + " s";
    }

    /** One row per process of the first schedules run, or null without one. */
    static TextTable scheduleUse(List<WorkloadResult> results) {
        ScheduleTicks ticks = scheduleOf(results);
        if (ticks == null) {
            return null;
        }
        TextTable table = new TextTable("process", "CPU idle %", "CPU with schedules %", "difference",
                "RSS max idle MB", "RSS max with schedules MB");
        for (ScheduleTicks.ProcessUse p : ticks.processes()) {
            table.row(p.process(), fmt(p.idleCpuPercent()), fmt(p.loadedCpuPercent()),
                    fmt(p.loadedCpuPercent() - p.idleCpuPercent()), fmt(p.idleRssMb()), fmt(p.loadedRssMb()));
        }
        return table;
    }

    /** The first schedules measurement of {@code results}, or null. */
    static ScheduleTicks scheduleOf(List<WorkloadResult> results) {
        List<WorkloadResult> with = ticked(results);
        return with.isEmpty() ? null : with.getFirst().schedules();
    }

    /** The caption above {@link #workflowTimes}. */
    static final String WORKFLOW_TITLE = "Workflow (ms): how long POST /api/workflows/{id}/runs took to answer 202; "
            + "fan-out (over its COMPLETED runs): from the run's 202 and from its createdAt to the join's job start "
            + "(execution_attempts.started_at), from createdAt to the last branch's start, and from the last branch's "
            + "finish (jobs.finished_at) to the join's start; diamond: from the run's request and from its createdAt "
            + "to its finishedAt";
    /** The caption above {@link #workflowCounts}. */
    static final String WORKFLOW_COUNTS_TITLE = "Workflow: runs and node jobs, diamond runs/s from the first request "
            + "to the last run's finishedAt, and the node jobs/s this means beside the burst's jobs/s at the same "
            + "concurrency";

    /** The available workflow runs that requested some run. */
    private static List<WorkloadResult> flowed(List<WorkloadResult> results) {
        return results.stream().filter(r -> r.available() && r.workflows() != null && r.workflows().measured())
                .toList();
    }

    /** One row per workflow run and figure. */
    static TextTable workflowTimes(List<WorkloadResult> results) {
        TextTable table = timesTable();
        return table.forEachOrNull(flowed(results), r -> {
            WorkflowRuns.FanOut f = r.workflows().fanOut();
            row(table, r.label(), "fan-out: run request to 202", f.answer());
            row(table, r.label(), "fan-out: 202 to join started", f.acceptedToJoin());
            row(table, r.label(), "fan-out: run created to join started", f.createdToJoin());
            row(table, r.label(), "fan-out: run created to last branch started", f.createdToLastBranchStart());
            row(table, r.label(), "fan-out: last branch finished to join started", f.lastBranchToJoin());
            WorkflowRuns.Diamond d = r.workflows().diamond();
            row(table, r.label(), "diamond: run request to 202", d.answer());
            row(table, r.label(), "diamond: run request to run finished", d.requestToEnd());
            row(table, r.label(), "diamond: run created to run finished", d.createdToEnd());
        });
    }

    /** Two rows per workflow run: the fan-out's and the diamond's runs, node jobs and rates. */
    static TextTable workflowCounts(List<WorkloadResult> results) {
        TextTable table = new TextTable("workload", "workflow", "nodes", "runs", "not accepted", "completed",
                "node jobs", "node jobs once", "runs/s", "node jobs/s", "burst jobs/s", "workflows deleted");
        return table.forEachOrNull(flowed(results), r -> {
            WorkflowRuns w = r.workflows();
            WorkflowRuns.FanOut f = w.fanOut();
            WorkflowRuns.Diamond d = w.diamond();
            WorkloadResult burst = plainBurst(results, d.concurrency());
            table.row(r.label(), WorkflowRuns.Shape.FAN_OUT.label(),
                    Integer.toString(WorkflowRuns.Shape.FAN_OUT.nodeIds().size()), Integer.toString(f.runs()),
                    Integer.toString(f.notAccepted()), Integer.toString(f.completed()),
                    Integer.toString(w.expectedNodeJobs(WorkflowRuns.Shape.FAN_OUT)),
                    Integer.toString(w.nodeJobsOnce(WorkflowRuns.Shape.FAN_OUT)), "-", "-", "-",
                    Integer.toString(w.deleted()));
            table.row(r.label(), WorkflowRuns.Shape.DIAMOND.label() + " c=" + d.concurrency(),
                    Integer.toString(WorkflowRuns.Shape.DIAMOND.nodeIds().size()), Integer.toString(d.runs()),
                    Integer.toString(d.notAccepted()), Integer.toString(d.completed()),
                    Integer.toString(w.expectedNodeJobs(WorkflowRuns.Shape.DIAMOND)),
                    Integer.toString(w.nodeJobsOnce(WorkflowRuns.Shape.DIAMOND)), fmt(d.runsPerSecond()),
                    fmt(d.jobsPerSecond()), burst == null ? "-" : fmt(burst.throughput()), "");
        });
    }

    /** The caption above {@link #limitsBurst}. */
    static final String LIMITS_TITLE = "Limits: the burst's no-op jobs sent with a tenant whose maxRunning does not "
            + "bind, beside the plain burst at the same concurrency in the same invocation (ms: submit to start and to "
            + "completed, as in the latency table)";
    /** The caption above {@link #limitsBinding}. */
    static final String LIMITS_BINDING_TITLE = "Limits: sleeping jobs under a tenant maxRunning that binds: the most "
            + "running at once (execution_attempts.started_at to jobs.finished_at) and jobs/s from the first start to "
            + "the last finish against the ideal, maxRunning / sleep";

    /** The available limits runs that measured their phase under a limit that binds. */
    private static List<WorkloadResult> limited(List<WorkloadResult> results) {
        return results.stream().filter(r -> r.available() && r.limits() != null).toList();
    }

    /** The plain burst of {@code results} at {@code concurrency}, or null when none ran. */
    static WorkloadResult plainBurst(List<WorkloadResult> results, int concurrency) {
        return results.stream().filter(b -> b.workload() == Workload.BURST && b.available()
                && b.concurrency() == concurrency).findFirst().orElse(null);
    }

    /** {@code limited}'s jobs/s as a share of the plain burst's at its concurrency; NaN without that burst. */
    static double ratioToBurst(List<WorkloadResult> results, WorkloadResult limited) {
        WorkloadResult burst = plainBurst(results, limited.concurrency());
        return burst == null ? Double.NaN : limited.throughput() / burst.throughput();
    }

    /** The plain burst's jobs/s of {@code results} at {@code concurrency}, else {@code baseline} (NaN: none). */
    static double burstOrBaseline(List<WorkloadResult> results, int concurrency, double baseline) {
        WorkloadResult burst = plainBurst(results, concurrency);
        return burst != null ? burst.throughput() : baseline;
    }

    /** The caption above {@link #mixed}. */
    static final String MIXED_TITLE = "Mixed: the burst's no-op jobs with features in use (10% with an "
            + "Idempotency-Key, 10% labelled for a subscription's filter, a tenant limit that does not bind, a workflow "
            + "run per 100 jobs); jobs/s over the plain jobs, beside the plain burst (or --baseline)";

    /**
     * One row per mixed run: its plain jobs' rate against the burst's, the idempotent repeats, the labelled jobs'
     * webhooks and the workflow runs.
     */
    static TextTable mixed(List<WorkloadResult> results, double baseline) {
        TextTable table = new TextTable("workload", "completed", "jobs/s", "of burst", "keyed", "repeat same job",
                "labelled", "webhooks once", "missing", "repeated", "unmatched", "runs COMPLETED", "node jobs");
        return table.forEachOrNull(results.stream().filter(r -> r.available() && r.mixed() != null).toList(), r -> {
            MixedFeatures m = r.mixed();
            double ratio = r.throughput() / burstOrBaseline(results, r.concurrency(), baseline);
            table.row(r.label(), Long.toString(r.jobs().stream().filter(JobRecord::completed).count()),
                    fmt(r.throughput()), Double.isNaN(ratio) ? "-" : fmt(ratio * 100) + "%",
                    Integer.toString(m.keyed()), Integer.toString(m.keyedSameJob()), Integer.toString(m.labelled()),
                    m.filtered() ? Integer.toString(m.hookedOnce()) : "no filter",
                    Integer.toString(m.hooksMissing()), Integer.toString(m.hooksRepeated()),
                    Integer.toString(m.hooksUnmatched()), m.runsCompleted() + "/" + m.runsStarted(),
                    Integer.toString(m.nodeJobs()));
        });
    }

    /** The caption above {@link #queues}. */
    static final String QUEUES_TITLE = "Queues: the burst's no-op jobs sent to queue " + QueuesBench.DEFAULT_QUEUE
            + " and queue " + QueuesBench.QUEUE + " by turns, each queue served by its own workers; jobs/s of the run "
            + "beside the plain burst (or --baseline), and per queue; runs: execution rows, outside: rows written by a "
            + "worker that does not serve the job's queue";

    /** One row per queues run (all its jobs, against the burst's rate), then one per queue it sent jobs to. */
    static TextTable queues(List<WorkloadResult> results, double baseline) {
        TextTable table = new TextTable("workload", "queue", "workers", "jobs", "completed", "jobs/s", "of burst",
                "runs", "outside");
        return table.forEachOrNull(results.stream().filter(r -> r.available() && r.queues() != null).toList(), r -> {
            QueueRuns q = r.queues();
            double ratio = r.throughput() / burstOrBaseline(results, r.concurrency(), baseline);
            table.row(r.label(), "all", "", Integer.toString(r.jobs().size()),
                    Long.toString(r.jobs().stream().filter(JobRecord::completed).count()), fmt(r.throughput()),
                    Double.isNaN(ratio) ? "-" : fmt(ratio * 100) + "%", q.measured() ? Long.toString(q.runs()) : "-",
                    q.measured() ? Long.toString(q.outside()) : "-");
            for (QueueRuns.Queue queue : q.queues()) {
                table.row(r.label(), queue.name(), queue.workers().isEmpty() ? "none"
                                : String.join(" ", queue.workers()), Integer.toString(queue.jobs()),
                        Integer.toString(queue.completed()), fmt(queue.jobsPerSecond()), "",
                        q.measured() ? Long.toString(queue.runs()) : "-",
                        q.measured() ? Long.toString(queue.outside()) : "-");
            }
        });
    }

    /** Per limits run, the plain burst at its concurrency (when it ran) and the limited burst. */
    static TextTable limitsBurst(List<WorkloadResult> results) {
        TextTable table = new TextTable("workload", "tenant maxRunning", "completed", "jobs/s", "of burst",
                "start p50", "start p99", "completed p50", "completed p99");
        return table.forEachOrNull(limited(results), r -> {
            WorkloadResult burst = plainBurst(results, r.concurrency());
            if (burst != null) {
                burstRow(table, burst, "none", "");
            }
            double ratio = ratioToBurst(results, r);
            burstRow(table, r, Integer.toString(r.limits().freeLimit()),
                    Double.isNaN(ratio) ? "-" : fmt(ratio * 100) + "%");
        });
    }

    private static void burstRow(TextTable table, WorkloadResult r, String limit, String ofBurst) {
        table.row(r.label(), limit, Long.toString(r.jobs().stream().filter(JobRecord::completed).count()),
                fmt(r.throughput()), ofBurst, fmt(r.toStart().p50()), fmt(r.toStart().p99()), fmt(r.toFinish().p50()),
                fmt(r.toFinish().p99()));
    }

    /** One row per limits run: the binding limit, its jobs, the most running at once, the rate against the ideal. */
    static TextTable limitsBinding(List<WorkloadResult> results) {
        TextTable table = new TextTable("workload", "maxRunning", "jobs", "not accepted", "completed", "sleep ms",
                "most running at once", "starts over the limit", "jobs/s", "ideal jobs/s", "of ideal", "limit held");
        return table.forEachOrNull(limited(results), r -> {
            TenantLimits l = r.limits();
            table.row(r.label(), Integer.toString(l.bindingLimit()), Integer.toString(l.jobs().size()),
                    Integer.toString(l.notAccepted()), Integer.toString(l.completed()), Long.toString(l.sleepMs()),
                    Integer.toString(l.maxRunning()), Integer.toString(l.overLimit().size()), fmt(l.jobsPerSecond()),
                    fmt(l.idealPerSecond()), Double.isNaN(l.shareOfIdeal()) ? "-" : fmt(l.shareOfIdeal() * 100) + "%",
                    !l.measured() ? "-" : l.exceeded() ? "EXCEEDED" : "yes");
        });
    }

    /** The caption above {@link #purge}. */
    static final String PURGE_TITLE = "Purge: finished jobs seeded into the API's and the scheduler's databases, "
            + "purged by a retention of " + PurgeRun.RETENTION + " while the steady load ran; gone = from the "
            + "retention's 200 to the first count with none left (counted every " + PurgeRun.SAMPLE_EVERY.toSeconds()
            + " s); start = the steady jobs' submit-to-start meanwhile";

    /** One row per database of each purge run, with the steady jobs' latency on each. */
    static TextTable purge(List<WorkloadResult> results) {
        TextTable table = new TextTable("workload", "database", "seeded", "seed s", "left", "gone s", "jobs/s",
                "steady jobs", "start p50", "start p99", "others purged");
        return table.forEachOrNull(results.stream().filter(r -> r.available() && r.purge() != null).toList(), r -> {
            PurgeRun p = r.purge();
            for (PurgeRun.Database db : List.of(p.api(), p.scheduler())) {
                table.row(r.label(), db.name(), Long.toString(p.seeded()), fmt(p.seedSeconds()),
                        Long.toString(db.left()), fmt(db.seconds()), fmt(db.rate(p.seeded())),
                        Integer.toString(r.toStart().count()), fmt(r.toStart().p50()), fmt(r.toStart().p99()),
                        Long.toString(p.others().purged()));
            }
        });
    }
}
