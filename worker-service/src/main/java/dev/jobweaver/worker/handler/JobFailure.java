package dev.jobweaver.worker.handler;

import dev.jobweaver.common.error.WorkerErrorCode;

/** An attempt failed in a way its handler expected; the message is the attempt's error, as operators see it. */
public final class JobFailure extends Exception {

    /** A failure whose message is {@code message} as it is (a SIMULATION job's own FAIL message). */
    public JobFailure(String message) {
        super(message, null, false, false); // a verdict, not a bug: no stack trace to fill
    }

    /** A failure whose message starts with {@code code}, so that operators can match on it. */
    public static JobFailure of(WorkerErrorCode code, String detail) {
        return new JobFailure(code.code() + ": " + detail);
    }
}
