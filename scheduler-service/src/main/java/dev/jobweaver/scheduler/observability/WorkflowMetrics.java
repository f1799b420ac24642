package dev.jobweaver.scheduler.observability;

import dev.jobweaver.common.metrics.Counters;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The meters of workflow runs: {@code jobweaver_workflow_runs_total{status}} (runs started, runs that ran again
 * after their end, retried or resumed by a node's requeue, and runs ended by how: a run that ran again counts its
 * next end too),
 * {@code jobweaver_workflow_nodes_ready_total}, {@code jobweaver_workflow_nodes_results_too_large_total} and
 * {@code jobweaver_workflow_node_jobs_orphaned_total} (node jobs stored {@code CANCELLED} at ingestion: their run had
 * ended or was unknown).
 *
 * <p>Created at start, as {@link SchedulerMetrics}, so that every meter is in the first scrape. Counted after the
 * commit of the change they count.
 */
@Startup
@ApplicationScoped
public class WorkflowMetrics {

    private final Counter started;
    private final Counter completed;
    private final Counter failed;
    private final Counter cancelled;
    private final Counter retried;
    private final Counter ready;
    private final Counter resultsTooLarge;
    private final Counter orphaned;

    public WorkflowMetrics(MeterRegistry registry) {
        this.started = runs(registry, "started");
        this.completed = runs(registry, "completed");
        this.failed = runs(registry, "failed");
        this.cancelled = runs(registry, "cancelled");
        this.retried = runs(registry, "retried");
        this.ready = Counters.of(registry, "jobweaver.workflow.nodes.ready",
                "Nodes of workflow runs whose jobs were asked for");
        this.resultsTooLarge = Counters.of(registry, "jobweaver.workflow.nodes.results.too.large",
                "Ready nodes failed because their dependencies' results do not fit one record");
        this.orphaned = Counters.of(registry, "jobweaver.workflow.node.jobs.orphaned",
                "Node jobs stored CANCELLED at ingestion: their run had ended or is unknown");
    }

    private static Counter runs(MeterRegistry registry, String status) {
        return Counters.of(registry, "jobweaver.workflow.runs",
                "Workflow runs started, run again after their end (retried), and ended by status", "status", status);
    }

    public void started() {
        started.increment();
    }

    /** A run ended with {@code status} (COMPLETED, FAILED or CANCELLED). */
    public void ended(String status) {
        switch (status) {
            case "COMPLETED" -> completed.increment();
            case "FAILED" -> failed.increment();
            case "CANCELLED" -> cancelled.increment();
            default -> throw new IllegalArgumentException("no end: " + status);
        }
    }

    /** An ended run runs again: retried, or resumed by the requeue of a node's job. */
    public void retried() {
        retried.increment();
    }

    public void ready(int nodes) {
        ready.increment(nodes);
    }

    public void resultsTooLarge() {
        resultsTooLarge.increment();
    }

    public void orphaned(int jobs) {
        orphaned.increment(jobs);
    }
}
