package dev.jobweaver.api.job.service;

import java.util.UUID;

/**
 * How a submission ended.
 *
 * @param accepted true: Kafka holds the job's event (202); false: it does not and never will, the job is
 *                 {@code REJECTED} (503)
 * @param reason why it was rejected; null when accepted
 */
public record SubmissionOutcome(UUID jobId, String traceId, boolean accepted, String reason) {

    static SubmissionOutcome accepted(UUID jobId, String traceId) {
        return new SubmissionOutcome(jobId, traceId, true, null);
    }

    static SubmissionOutcome rejected(UUID jobId, String traceId, String reason) {
        return new SubmissionOutcome(jobId, traceId, false, reason);
    }
}
