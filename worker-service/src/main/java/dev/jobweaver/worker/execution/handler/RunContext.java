package dev.jobweaver.worker.execution.handler;

import java.util.UUID;

/**
 * One attempt as a handler sees it.
 *
 * @param attempt 1-based
 * @param traceId the job's trace, for what the handler logs or sends on
 * @param payload the job's payload, read as the handler's record
 * @param deadline when the attempt must have ended
 * @param <P> the handler's payload record
 */
public record RunContext<P>(UUID jobId, int attempt, String traceId, P payload, Deadline deadline) {
}
