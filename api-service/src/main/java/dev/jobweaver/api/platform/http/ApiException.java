package dev.jobweaver.api.platform.http;

import java.util.Map;

/**
 * A refusal the REST layer raises itself: answered as an {@code ErrorResponse} with the code's status and the given
 * headers. Code below the REST layer raises a {@link RefusedException} instead.
 */
public class ApiException extends RefusedException {

    private final Map<String, String> headers;

    public ApiException(ApiErrorCode code, String message) {
        this(code, message, null, Map.of());
    }

    public ApiException(ApiErrorCode code, String message, String jobId) {
        this(code, message, jobId, Map.of());
    }

    public ApiException(ApiErrorCode code, String message, String jobId, Map<String, String> headers) {
        super(code, message, jobId, 0);
        this.headers = Map.copyOf(headers);
    }

    /** Extra response headers, e.g. {@code Retry-After}. */
    public Map<String, String> headers() {
        return headers;
    }
}
