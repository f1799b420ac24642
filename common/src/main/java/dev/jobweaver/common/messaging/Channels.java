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
    /**
     * Scheduler publishes runs ({@code run-job}), state changes ({@code job-status}), dead letters
     * ({@code job-dead-letter}) and commands to the workers ({@code worker-commands}) through one producer; each record names its topic. The one exception to the naming
     * rule: a round's runs and status changes then travel in one produce request and are acknowledged together.
     */
    public static final String SCHEDULER_EVENTS_OUT = "scheduler-events-out";
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
    /** API follows state changes into its read model. */
    public static final String JOB_STATUS_IN = "job-status-in";
    /** API records every attempt the workers report ({@code job-completed} and {@code job-failed}) for its history. */
    public static final String JOB_ATTEMPTS_IN = "job-attempts-in";
    /** API sends a client's cancel or delete of a job. */
    public static final String JOB_COMMANDS_OUT = "job-commands-out";
    /** Scheduler applies a client's cancel or delete of a job. */
    public static final String JOB_COMMANDS_IN = "job-commands-in";
    /**
     * Worker follows cancels and deletes ({@code worker-commands}, published by the scheduler through
     * {@link #SCHEDULER_EVENTS_OUT}).
     */
    public static final String WORKER_COMMANDS_IN = "worker-commands-in";
    /** API publishes the timing of recurring schedules. */
    public static final String SCHEDULES_OUT = "schedules-out";
    /** Scheduler follows the timing of recurring schedules. */
    public static final String SCHEDULES_IN = "schedules-in";
    /** API publishes each tenant's concurrency limit. */
    public static final String TENANT_LIMITS_OUT = "tenant-limits-out";
    /** Scheduler follows each tenant's concurrency limit. */
    public static final String TENANT_LIMITS_IN = "tenant-limits-in";
    /** Scheduler reports that a schedule's tick came. */
    public static final String SCHEDULE_FIRED_OUT = "schedule-fired-out";
    /** API makes the job of a schedule's tick. */
    public static final String SCHEDULE_FIRED_IN = "schedule-fired-in";

    /** API asks the scheduler to start or cancel a workflow run. */
    public static final String WORKFLOW_RUNS_OUT = "workflow-runs-out";
    /** Scheduler starts and cancels workflow runs. */
    public static final String WORKFLOW_RUNS_IN = "workflow-runs-in";
    /** Scheduler reports a workflow run's progress and the nodes that became ready. */
    public static final String WORKFLOW_PROGRESS_OUT = "workflow-progress-out";
    /** API follows workflow runs and makes the jobs of their ready nodes. */
    public static final String WORKFLOW_PROGRESS_IN = "workflow-progress-in";

    /** API keeps the jobs that exhausted their retries for review ({@code job-dead-letter}). */
    public static final String JOB_DEAD_LETTER_IN = "job-dead-letter-in";

    /** A worker announces itself: its queues, job types and capacity ({@code worker-heartbeats}). */
    public static final String WORKER_HEARTBEATS_OUT = "worker-heartbeats-out";
    /** The scheduler and the API follow which workers live ({@code worker-heartbeats}). */
    public static final String WORKER_HEARTBEATS_IN = "worker-heartbeats-in";

    /** Every service sets aside the records it cannot process ({@code jobweaver-quarantine}). */
    public static final String QUARANTINE_OUT = "quarantine-out";
    /** API keeps every quarantined record for review and replay ({@code jobweaver-quarantine}). */
    public static final String QUARANTINE_IN = "quarantine-in";

    private Channels() {
    }
}
