package dev.jobweaver.scheduler.workflow;

import dev.jobweaver.common.workflow.OnFailure;
import dev.jobweaver.common.workflow.WorkflowRunStatus;
import java.time.Instant;
import java.util.UUID;

/**
 * One row of {@code workflow_runs}: a run as the scheduler drives it. Immutable; a change makes a new one.
 *
 * @param workflowId null for a cancel kept before its START came ({@link #isCancelBeforeStart})
 * @param progressVersion the version of the last {@code WorkflowProgressEvent} published for the run
 * @param traceparent the run's span, the parent of the scheduler's spans of the run; null if unknown
 * @param scheduleId the schedule whose tick or trigger started the run; null for any other run
 */
record WorkflowRun(UUID runId, UUID workflowId, Integer version, String tenant, OnFailure onFailure,
                          Integer maxConcurrency, WorkflowRunStatus status, long progressVersion, String traceId,
                          String traceparent, Instant createdAt, Instant finishedAt,
                          UUID scheduleId) {

    /** Whether this row is a cancel that came before its run's START. */
    public boolean isCancelBeforeStart() {
        return workflowId == null;
    }

    /** This run with another status, progress version and end. */
    public WorkflowRun with(WorkflowRunStatus nextStatus, long nextProgressVersion, Instant nextFinishedAt) {
        return new WorkflowRun(runId, workflowId, version, tenant, onFailure, maxConcurrency, nextStatus,
                nextProgressVersion, traceId, traceparent, createdAt, nextFinishedAt, scheduleId);
    }
}
