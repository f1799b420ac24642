package dev.jobweaver.common.workflow;

/** The status of one node of a workflow run. */
public enum NodeStatus {
    /** A dependency has not completed yet; the node has no job. */
    WAITING,
    /** Its dependencies completed; its job was asked for and waits for a worker. */
    PENDING,
    /** Its job runs (or waits for its retry). */
    RUNNING,
    /** Its job completed; its result goes to the nodes that depend on it. */
    COMPLETED,
    /** Its job failed for good (until its run is retried or its dead letter requeued). */
    FAILED,
    /** Cancelled with its run, or by {@code FAIL_FAST}: it runs again only if its run is retried. */
    CANCELLED,
    /**
     * Under {@code CONTINUE}, a node it depends on failed, was cancelled or skipped: it runs only if its run is retried
     * or that node's job requeued.
     */
    SKIPPED;

    /** Whether the node has ended. */
    public boolean terminal() {
        return this == COMPLETED || this == FAILED || this == CANCELLED || this == SKIPPED;
    }
}
