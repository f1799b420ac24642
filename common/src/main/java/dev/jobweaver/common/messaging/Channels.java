package dev.jobweaver.common.messaging;

/**
 * SmallRye Reactive Messaging channel names, one per (service, direction, topic).
 *
 * <p>Channels are named after their topic with an {@code -in} or {@code -out} suffix, so that the
 * {@code mp.messaging.*} lines in each service's application.properties can be read against this class.
 */
public final class Channels {

    /** API publishes accepted jobs. */
    public static final String JOB_CREATED_OUT = "job-created-out";
    /** Scheduler ingests accepted jobs. */
    public static final String JOB_CREATED_IN = "job-created-in";
    /** Scheduler dispatches attempts. */
    public static final String RUN_JOB_OUT = "run-job-out";
    /** Worker receives attempts. */
    public static final String RUN_JOB_IN = "run-job-in";
    /** Worker reports a success. */
    public static final String JOB_COMPLETED_OUT = "job-completed-out";
    /** Scheduler applies a success. */
    public static final String JOB_COMPLETED_IN = "job-completed-in";
    /** Worker reports a failure. */
    public static final String JOB_FAILED_OUT = "job-failed-out";
    /** Scheduler applies a failure. */
    public static final String JOB_FAILED_IN = "job-failed-in";
    /** Scheduler dead-letters a job. */
    public static final String JOB_DEAD_LETTER_OUT = "job-dead-letter-out";
    /** Scheduler publishes state changes. */
    public static final String JOB_STATUS_OUT = "job-status-out";
    /** API follows state changes into its read model. */
    public static final String JOB_STATUS_IN = "job-status-in";

    private Channels() {
    }
}
