package dev.jobweaver.bench;

import java.time.Instant;
import java.util.UUID;

/**
 * A job the API answered 202 for.
 *
 * @param jobId its id
 * @param kind what it does
 * @param submittedAt when the request was sent
 * @param acceptMs how long the 202 took
 * @param control the job-control fields it was sent with
 */
public record Accepted(UUID jobId, JobKind kind, Instant submittedAt, double acceptMs, Control control) {

    /** A null {@code control} is {@link Control#NONE}. */
    public Accepted {
        control = control == null ? Control.NONE : control;
    }

    /** A job sent without job-control fields. */
    public Accepted(UUID jobId, JobKind kind, Instant submittedAt, double acceptMs) {
        this(jobId, kind, submittedAt, acceptMs, Control.NONE);
    }
}
