package dev.jobweaver.scheduler.job;

import java.time.Instant;
import java.util.List;

/**
 * What a committed transaction of job state changes asks of the dispatcher, fired once per transaction by
 * {@link JobTransitions} (a synchronous CDI event) and only when there is something to ask.
 *
 * @param dispatched  the attempts the transaction dispatched itself (ingestion), to be counted and logged
 * @param wake        whether a dispatch round should run now: slots of the in-flight limit were freed, or a job is
 *                    due now
 * @param dueAt       the earliest instant a job stored for later becomes due, or null
 * @param now         the database's clock that {@code dueAt} is measured from, or null
 * @param sentAtNanos {@link System#nanoTime()} as the statement that read {@code now} was sent
 */
public record JobsCommitted(List<JobExecution> dispatched, boolean wake, Instant dueAt, Instant now,
                            long sentAtNanos) {
}
