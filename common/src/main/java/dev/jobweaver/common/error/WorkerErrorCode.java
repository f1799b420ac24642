package dev.jobweaver.common.error;

/** Errors the worker logs, counts and reports in failed outcomes. */
public enum WorkerErrorCode implements ErrorCode {
    /** A FAIL step, or a step that threw. */
    SIMULATION_FAILED,
    /** An attempt ran longer than its job's {@code timeoutMs}. */
    TIMEOUT,
    /** An HTTP job's request failed, was refused by the destination rules, or answered an unexpected status. */
    HTTP_CALL_FAILED,
    /**
     * The worker has no handler for the job's type: it hands the run back ({@code handedBack}), and the scheduler
     * dispatches it again to a worker that declares the type.
     */
    UNKNOWN_JOB_TYPE,
    /**
     * The run reached the worker after its lease ended (it waited in Kafka while no worker took it): nobody began it,
     * so the worker hands it back unrun, and the scheduler, which counts the attempt lost, dispatches the job again.
     */
    LEASE_ENDED,
    /** The job was cancelled: its run was interrupted, or not started because the cancel came first. */
    CANCELLED,
    /** The worker stopped while the run was in progress. */
    WORKER_STOPPED,
    /** A record on {@code run-job} could not be read; it was skipped. */
    MALFORMED_RECORD,
    /** Publishing an outcome failed. */
    EVENT_PUBLISH_FAILED,
    /** Committing offsets failed. */
    OFFSET_COMMIT_FAILED;

    @Override
    public String namespace() {
        return "WORKER";
    }
}
