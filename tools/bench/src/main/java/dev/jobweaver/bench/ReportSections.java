package dev.jobweaver.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The job-control and feature tables as both reports show them, in order: per priority, delayed jobs, idle CPU,
 * cancel, notify, schedules, workflow, concurrency limits, mixed features, queues, purge. The console prints each table
 * under its caption; {@code report.html} puts a section's heading first and adds its HTML note to each caption. A section is
 * left out when no run has its figures.
 */
final class ReportSections {

    /**
     * One table and what stands above it.
     *
     * @param caption plain text, both reports
     * @param htmlNote HTML that follows the caption in {@code report.html} only, starting with the caption's full stop
     * @param table the table
     */
    record Captioned(String caption, String htmlNote, TextTable table) {
    }

    /**
     * A workload's tables under one heading.
     *
     * @param heading the section's heading in {@code report.html}
     * @param tables its tables, in order
     */
    record Section(String heading, List<Captioned> tables) {
    }

    private ReportSections() {
    }

    /** The sections {@code results} have figures for; {@code baseline} stands for a burst they lack (NaN: none). */
    static List<Section> of(List<WorkloadResult> results, double baseline) {
        List<Section> sections = new ArrayList<>();
        add(sections, "Priorities", ControlTables.byPriority(results), t -> List.of(
                new Captioned(ControlTables.PRIORITY_TITLE,
                        ". Recorded otherwise: jobs the scheduler stored under another priority.", t)));
        add(sections, "Delayed jobs", ControlTables.lateness(results), t -> List.of(
                new Captioned(ControlTables.LATENESS_TITLE, ". The due time is the platform's runAt "
                        + "(<code>jobweaver_api.jobs.run_at</code>) where it recorded one, else the bench's send time "
                        + "plus the delay.", t)));
        add(sections, "Idle CPU", ControlTables.idle(results), t -> List.of(
                new Captioned(ControlTables.idleTitle(ControlTables.idleOf(results)), ".", t)));
        add(sections, "Cancel", ControlTables.cancelTimes(results), t -> List.of(
                new Captioned(ControlTables.CANCEL_TITLE, ". Waiting jobs (<code>delayMs</code> "
                        + Cancels.WAITING_DELAY_MS + ") are cancelled once accepted, running ones once the worker has "
                        + "started them; the worker's interrupt is the cancelled attempt's "
                        + "<code>execution_attempts.finished_at</code>.", t),
                new Captioned(ControlTables.CANCEL_COUNTS_TITLE, ".", ControlTables.cancelCounts(results))));
        add(sections, "Notify", FeatureTables.notifyTimes(results), t -> List.of(
                new Captioned(FeatureTables.NOTIFY_TITLE, ". Every job has its own subscription to "
                        + "<code>COMPLETED</code>; the receiver runs in the bench and checks each delivery's "
                        + "<code>webhook-signature</code> against its subscription's secret.", t),
                new Captioned(FeatureTables.NOTIFY_COUNTS_TITLE, ". Duplicates: deliveries beyond a job's first, in "
                        + "brackets those repeating a <code>webhook-id</code>.", FeatureTables.notifyCounts(results))));
        add(sections, "Schedules", FeatureTables.scheduleTimes(results), t -> List.of(
                new Captioned(FeatureTables.SCHEDULE_COUNTS_TITLE, ".", FeatureTables.scheduleCounts(results)),
                new Captioned(FeatureTables.SCHEDULE_TITLE, ".", t),
                new Captioned(FeatureTables.scheduleUseTitle(FeatureTables.scheduleOf(results)), ".",
                        FeatureTables.scheduleUse(results))));
        add(sections, "Workflow", FeatureTables.workflowTimes(results), t -> List.of(
                new Captioned(FeatureTables.WORKFLOW_COUNTS_TITLE, ". Node jobs once: node jobs "
                        + "<code>COMPLETED</code> after one attempt and one <code>execution_attempts</code> row.",
                        FeatureTables.workflowCounts(results)),
                new Captioned(FeatureTables.WORKFLOW_TITLE, ".", t)));
        add(sections, "Concurrency limits", FeatureTables.limitsBurst(results), t -> List.of(
                new Captioned(FeatureTables.LIMITS_TITLE, ". While a tenant has a limit, every dispatch claim takes "
                        + "the limits' advisory lock and the tenant's jobs wait for a claim instead of being "
                        + "dispatched as they are ingested.", t),
                new Captioned(FeatureTables.LIMITS_BINDING_TITLE, ". Starts over the limit: jobs whose start made "
                        + "more run at once than maxRunning allows, each a correctness problem.",
                        FeatureTables.limitsBinding(results))));
        add(sections, "Mixed features", FeatureTables.mixed(results, baseline), t -> List.of(
                new Captioned(FeatureTables.MIXED_TITLE, ". Repeat same job: keyed jobs sent again after the run "
                        + "with their key and body, answered with the first job. Webhooks: labelled COMPLETED jobs "
                        + "whose webhook arrived once; unmatched ones came for jobs without the label.", t)));
        add(sections, "Queues", FeatureTables.queues(results, baseline), t -> List.of(
                new Captioned(FeatureTables.QUEUES_TITLE, ". A queue's workers are the live ones "
                        + "<code>GET /api/queues</code> listed for it before or after the jobs; a run is a row of "
                        + "<code>jobweaver_worker.execution_attempts</code>, whose <code>worker_id</code> names the "
                        + "worker that ran it.", t)));
        add(sections, "Purge", FeatureTables.purge(results), t -> List.of(
                new Captioned(FeatureTables.PURGE_TITLE, ". Others purged: rows of other tenants, unfinished or "
                        + "finished within the day before, that went during the purge; each a correctness problem.",
                        t)));
        return sections;
    }

    /**
     * Adds the section {@code heading} with the {@code tables} built around {@code key}, the table that is null when no
     * run has the section's figures; nothing then.
     */
    private static void add(List<Section> sections, String heading, TextTable key,
                            Function<TextTable, List<Captioned>> tables) {
        if (key != null) {
            sections.add(new Section(heading, tables.apply(key)));
        }
    }
}
