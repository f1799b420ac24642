package dev.jobweaver.api.deadletter;

/** Where a dead letter stands in its review. */
public enum DeadLetterState {
    /** Waiting for an operator: the job is FAILED and may be requeued or discarded. */
    OPEN,
    /** Handed back to the scheduler to run again; a failure after that opens it again. */
    REQUEUED,
    /** Archived by an operator: kept for audit, never runs again. */
    DISCARDED
}
