package dev.jobweaver.local.bench;

import java.time.Instant;
import java.util.UUID;

/**
 * A job the API answered 202 for.
 *
 * @param jobId its id
 * @param kind what it does
 * @param submittedAt when the request was sent
 * @param acceptMs how long the 202 took
 */
public record Accepted(UUID jobId, JobKind kind, Instant submittedAt, double acceptMs) {
}
