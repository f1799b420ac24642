package dev.jobweaver.api.notification;

import dev.jobweaver.common.event.JobStatusChangedEvent;
import dev.jobweaver.common.workflow.WorkflowRunStatus;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.Locale;

/**
 * What a subscription can be notified of: a job's state changes, and (for a subscription to a workflow) the end of each
 * of its runs. A subscription names each by its {@link #wireName()}, which is also what it stores and what a delivery
 * records: a job event's own name ({@code COMPLETED}), a run's event its type ({@code workflow.completed}).
 */
@RegisterForReflection
public enum NotificationEvent {
    /** A schedule's tick made the job (told by the schedules code, in the transaction that makes the job). */
    SCHEDULED,
    /** An attempt started: {@code RUNNING}. */
    STARTED,
    /** An attempt failed and a retry waits: {@code PENDING} with {@code retryCount > 0}. */
    RETRYING,
    COMPLETED,
    FAILED,
    CANCELLED,
    /** A run of the subscription's workflow completed: every node did. */
    WORKFLOW_COMPLETED,
    /** A run of the subscription's workflow failed. */
    WORKFLOW_FAILED,
    /** A run of the subscription's workflow was cancelled. */
    WORKFLOW_CANCELLED;

    private static final String RUN_PREFIX = "WORKFLOW_";

    /** Whether this is a workflow run's end rather than a job's change: only a workflow's subscription hears it. */
    public boolean ofRun() {
        return name().startsWith(RUN_PREFIX);
    }

    /** The body's {@code type}: {@code job.completed}, {@code workflow.completed}. */
    public String type() {
        return ofRun() ? "workflow." + name().substring(RUN_PREFIX.length()).toLowerCase(Locale.ROOT)
                : "job." + name().toLowerCase(Locale.ROOT);
    }

    /** How a subscription names it: {@code COMPLETED} for a job's, {@code workflow.completed} for a run's. */
    public String wireName() {
        return ofRun() ? type() : name();
    }

    /** The event {@code wireName} names, or null. */
    public static NotificationEvent named(String wireName) {
        for (NotificationEvent event : values()) {
            if (event.wireName().equals(wireName)) {
                return event;
            }
        }
        return null;
    }

    /**
     * The notification a status change is, or null: a first {@code PENDING} (the job was stored; SCHEDULED comes from
     * the schedules code instead) and {@code REJECTED} notify nothing.
     */
    public static NotificationEvent of(JobStatusChangedEvent event) {
        return switch (event.status()) {
            case RUNNING -> STARTED;
            case PENDING -> event.retryCount() > 0 ? RETRYING : null;
            case COMPLETED -> COMPLETED;
            case FAILED -> FAILED;
            case CANCELLED -> CANCELLED;
            case REJECTED -> null;
        };
    }

    /** The notification of a run that ended with {@code status}, or null when the status is not an end. */
    public static NotificationEvent ofRun(WorkflowRunStatus status) {
        return switch (status) {
            case COMPLETED -> WORKFLOW_COMPLETED;
            case FAILED -> WORKFLOW_FAILED;
            case CANCELLED -> WORKFLOW_CANCELLED;
            case PENDING, RUNNING -> null;
        };
    }
}
