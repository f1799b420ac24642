package dev.jobweaver.worker.store;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.UUID;

/**
 * One row of {@code execution_attempts}: a run of one attempt of a job, keyed by the run's eventId.
 *
 * @param finishedAt null while {@code RUNNING}
 * @param errorMessage why it failed; null unless {@code FAILURE}
 * @param workerId the worker that started the run
 * @param result what the job's handler reported on success, published with the outcome; null for none (and for
 *               rows stored before results existed)
 */
public record ExecutionAttempt(
        UUID eventId,
        UUID jobId,
        int attempt,
        String traceId,
        Instant startedAt,
        Instant finishedAt,
        ExecutionOutcome outcome,
        String errorMessage,
        String workerId,
        JsonNode result) {

    /** A run {@code workerId} has just begun: {@code RUNNING}, not finished, with no error and no result yet. */
    public static ExecutionAttempt running(UUID eventId, UUID jobId, int attempt, String traceId, Instant startedAt,
            String workerId) {
        return new ExecutionAttempt(eventId, jobId, attempt, traceId, startedAt, null, ExecutionOutcome.RUNNING, null,
                workerId, null);
    }
}
