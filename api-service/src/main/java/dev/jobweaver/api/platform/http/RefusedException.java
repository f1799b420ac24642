package dev.jobweaver.api.platform.http;


/**
 * A request the API refuses, raised where the refusal is decided (a service, a check of the caller) by code that
 * knows nothing of HTTP. The code fixes the answer's status; {@code retryAfterSeconds} says when the same request may
 * succeed, 0 when repeating it will not help. The REST layer answers it as an {@code ErrorResponse}
 * (the REST layer's {@code ApiExceptionMappers}), as it answers its own {@code ApiException}, a subclass.
 *
 * <p>Without a stack trace: it is an answer, thrown on the hot path of a burst (a rate limit), not a bug.
 */
public class RefusedException extends RuntimeException {

    private final ApiErrorCode code;
    private final String jobId;
    private final long retryAfterSeconds;

    public RefusedException(ApiErrorCode code, String message) {
        this(code, message, null, 0);
    }

    public RefusedException(ApiErrorCode code, String message, String jobId, long retryAfterSeconds) {
        super(message, null, false, false);
        this.code = code;
        this.jobId = jobId;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    /** The error code, which fixes the HTTP status. */
    public ApiErrorCode code() {
        return code;
    }

    /** The job concerned, if any. */
    public String jobId() {
        return jobId;
    }

    /** Whole seconds after which the same request may succeed; 0 when none is said. */
    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
