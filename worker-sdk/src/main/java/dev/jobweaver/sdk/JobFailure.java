package dev.jobweaver.sdk;

/** An attempt failed in a way its handler expected; the message is the attempt's error, as operators see it. */
public final class JobFailure extends Exception {

    /** A failure whose message is {@code message} as it is. */
    public JobFailure(String message) {
        super(message, null, false, false); // a verdict, not a bug: no stack trace to fill
    }

    /**
     * A failure whose message is {@code code: detail}, so that operators and alerts can match on the code (such as
     * {@code IMAGE.TOO_LARGE}).
     */
    public static JobFailure withCode(String code, String detail) {
        return new JobFailure(code + ": " + detail);
    }
}
