package dev.jobweaver.api.notification;

import dev.jobweaver.common.event.JobStatusChangedEvent;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.Locale;

/** What a subscription can be notified of, and which job-status change each one is. */
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
    CANCELLED;

    /** The body's {@code type}: {@code job.completed}. */
    public String type() {
        return "job." + name().toLowerCase(Locale.ROOT);
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
}
