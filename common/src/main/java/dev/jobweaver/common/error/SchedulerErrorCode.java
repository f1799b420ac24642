package dev.jobweaver.common.error;

/** Errors the scheduler logs and counts (it has no clients to answer). */
public enum SchedulerErrorCode implements ErrorCode {
    /** A record on a consumed topic could not be read; it was skipped. */
    MALFORMED_RECORD,
    /** Publishing an event failed. */
    EVENT_PUBLISH_FAILED,
    /** A dispatch round failed. */
    DISPATCH_FAILED,
    /** An attempt's lease expired before its outcome arrived. */
    LEASE_EXPIRED;

    @Override
    public String namespace() {
        return "SCHEDULER";
    }
}
