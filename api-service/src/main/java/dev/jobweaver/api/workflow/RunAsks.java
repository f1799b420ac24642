package dev.jobweaver.api.workflow;

import dev.jobweaver.common.event.WorkflowRunEvent;
import dev.jobweaver.common.workflow.WorkflowNode;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * What a run's row asks of the scheduler that Kafka has not acknowledged yet, in order: its {@code START} (change 1),
 * then its {@code CANCEL} (change 2), from the first change not published.
 *
 * @param changeVersion the row's change version these asks bring Kafka up to
 */
record RunAsks(UUID runId, int changeVersion, List<WorkflowRunEvent> events) {

    /** The change version of a run's start. */
    public static final int STARTED = 1;
    /** The change version of a run's cancel. */
    public static final int CANCELLED = 2;

    /**
     * The asks of {@code run} (of {@code version}) above {@code publishedVersion}. A START already acknowledged is
     * not sent again with its CANCEL; one sent twice is harmless (the scheduler stores a run once).
     */
    public static RunAsks of(WorkflowRun run, WorkflowVersion version, int publishedVersion) {
        List<WorkflowRunEvent> events = new ArrayList<>(2);
        if (publishedVersion < STARTED) {
            List<WorkflowNode> graph = WorkflowJson.nodes(version.nodes).stream()
                    .map(node -> new WorkflowNode(node.id(), node.dependsOn())).toList();
            events.add(WorkflowRunEvent.start(run.id, run.workflowId, run.workflowVersion, run.tenant,
                    version.onFailure, version.maxConcurrency, graph, run.traceId, run.traceparent, run.createdAt,
                    run.scheduleId));
        }
        if (run.cancelRequested) {
            events.add(WorkflowRunEvent.cancel(run.id, run.updatedAt));
        }
        return new RunAsks(run.id, run.changeVersion, List.copyOf(events));
    }
}
