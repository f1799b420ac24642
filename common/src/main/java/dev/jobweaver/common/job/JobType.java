package dev.jobweaver.common.job;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * The kinds of job the platform runs. Each names a handler in the worker's registry and a payload shape that the API
 * checks at submission ({@link Payloads#check}); a type the API does not know is a 400.
 */
@RegisterForReflection
public enum JobType {
    /** A job whose payload is a list of simulated {@link Step}s ({@link JobPayload}). */
    SIMULATION,
    /** One outbound HTTP request ({@link HttpCallPayload}); its status and a bounded body are the result. */
    HTTP
}
