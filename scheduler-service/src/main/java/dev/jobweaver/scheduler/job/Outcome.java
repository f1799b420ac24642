package dev.jobweaver.scheduler.job;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.common.event.JobCompletedEvent;
import dev.jobweaver.common.event.JobFailedEvent;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;

/**
 * What a worker reported about one attempt, whichever topic it came from.
 *
 * @param eventId the run's eventId as the worker echoed it; may be null, then only {@code attempt} is checked
 * @param error why the attempt failed; null for a success
 * @param finishedAt when the run finished or failed
 * @param result what the handler reported with a success, or null
 */
public record Outcome(Kind kind, UUID eventId, UUID jobId, int attempt, String error, Instant startedAt,
                      Instant finishedAt, JsonNode result) {

    /** Success, failure, or a run its worker handed back unrun. */
    public enum Kind {
        COMPLETED,
        FAILED,
        /** The worker has no handler for the job's type: the run goes back to be dispatched again, no retry spent. */
        HANDED_BACK
    }

    /** The outcome of a {@link JobCompletedEvent}. */
    public static Outcome of(JobCompletedEvent e) {
        return new Outcome(Kind.COMPLETED, e.eventId(), e.jobId(), e.attempt(), null, micros(e.startedAt()),
                micros(e.finishedAt()), e.result());
    }

    /** The outcome of a {@link JobFailedEvent}. */
    public static Outcome of(JobFailedEvent e) {
        String error = e.errorMessage() == null || e.errorMessage().isBlank() ? "attempt failed" : e.errorMessage();
        return new Outcome(e.handedBack() ? Kind.HANDED_BACK : Kind.FAILED, e.eventId(), e.jobId(), e.attempt(), error,
                micros(e.startedAt()), micros(e.failedAt()), null);
    }

    /**
     * PostgreSQL keeps microseconds: an event built from an outcome must say what a re-published one (built from
     * the row) will say, or the same version would carry two different instants.
     */
    private static Instant micros(Instant instant) {
        return instant == null ? null : instant.truncatedTo(ChronoUnit.MICROS);
    }
}
