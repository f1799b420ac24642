package dev.jobweaver.common.quarantine;

/**
 * A record that parsed but breaks a rule of its topic; its message names the field, e.g.
 * {@code traceId must be 32 lower-case hex characters, got 100 characters}. Always permanent.
 */
public class InvalidRecordException extends RuntimeException {

    public InvalidRecordException(String message) {
        super(message, null, false, false); // a verdict on data: no stack trace to fill
    }
}
