package dev.jobweaver.common.workflow;

/** The status of a workflow run. */
public enum WorkflowRunStatus {
    /** Accepted by the API; the scheduler has not taken it up yet. */
    PENDING,
    /** The scheduler holds it: some node has not finished. */
    RUNNING,
    /** Every node completed. */
    COMPLETED,
    /** A node failed for good; the others were cancelled ({@code FAIL_FAST}) or ran to their end ({@code CONTINUE}). */
    FAILED,
    /** A client cancelled it; nodes that had not finished were cancelled. */
    CANCELLED;

    /** Whether the run has ended. */
    public boolean terminal() {
        return this == COMPLETED || this == FAILED || this == CANCELLED;
    }
}
