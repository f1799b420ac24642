package dev.jobweaver.bench.chaos;

import java.time.Instant;
import java.util.UUID;

/**
 * One submission of a chaos run and how the API answered it.
 *
 * @param at when the request was sent
 * @param status the HTTP status; 0 when no answer came (connection refused or reset, timeout); -1 when the request
 *               was not sent because too many were already waiting for an answer
 * @param jobId the job's id when the API accepted it (202), else null
 * @param detail the answer's body or the transport error, for refusals (shortened), else null
 */
public record Submitted(Instant at, int status, UUID jobId, String detail) {

    /** Status of a request the run did not send: {@link ChaosRun#MAX_IN_FLIGHT} others were waiting for answers. */
    public static final int NOT_SENT = -1;

    /** Whether the API accepted the job: 202 with a job id. */
    public boolean accepted() {
        return status == 202 && jobId != null;
    }
}
