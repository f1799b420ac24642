package dev.jobweaver.common.workflow;

/** What a workflow run does when one of its nodes fails for good (its job {@code FAILED} after its retries). */
public enum OnFailure {
    /** Cancel every node that has not finished; the run ends {@code FAILED}. */
    FAIL_FAST,
    /** Skip the nodes that depend on the failed one, directly or not; run every other node; the run ends {@code FAILED}. */
    CONTINUE
}
