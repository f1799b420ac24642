package dev.jobweaver.api.workflow;

import dev.jobweaver.api.job.store.JsonColumns;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.common.event.WorkflowProgressEvent;
import dev.jobweaver.common.workflow.WorkflowRunStatus;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * A workflow run as stored, detached from its entity.
 *
 * @param nodes every node with its status and, once it has one, its job
 * @param cancelRequested whether a client asked to cancel it
 * @param scheduleId the schedule that started it; null when none did
 * @param scheduledFor the tick (or trigger) of that schedule; null when none started it
 */
record StoredRun(UUID runId, UUID workflowId, int version, String tenant, WorkflowRunStatus status,
                        List<WorkflowProgressEvent.Node> nodes, JsonNode input, String traceId, Instant createdAt,
                        Instant finishedAt, boolean cancelRequested, UUID scheduleId, Instant scheduledFor) {

    /** The same run with these nodes. */
    public StoredRun withNodes(List<WorkflowProgressEvent.Node> changed) {
        return new StoredRun(runId, workflowId, version, tenant, status, changed, input, traceId, createdAt, finishedAt,
                cancelRequested, scheduleId, scheduledFor);
    }

    static StoredRun of(WorkflowRun run) {
        return new StoredRun(run.id, run.workflowId, run.workflowVersion, run.tenant, run.status,
                WorkflowJson.states(run.nodes), JsonColumns.tree(run.input), run.traceId, run.createdAt,
                run.finishedAt, run.cancelRequested, run.scheduleId, run.scheduledFor);
    }
}
