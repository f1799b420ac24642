package dev.jobweaver.api.web.rest;

import dev.jobweaver.common.error.ApiErrorCode;
import java.util.Map;

/** A client-facing failure: answered as an {@code ErrorResponse} with the code's status and the given headers. */
public class ApiException extends RuntimeException {

    private final ApiErrorCode code;
    private final String jobId;
    private final Map<String, String> headers;

    public ApiException(ApiErrorCode code, String message) {
        this(code, message, null, Map.of());
    }

    public ApiException(ApiErrorCode code, String message, String jobId) {
        this(code, message, jobId, Map.of());
    }

    public ApiException(ApiErrorCode code, String message, String jobId, Map<String, String> headers) {
        super(message, null, false, false);
        this.code = code;
        this.jobId = jobId;
        this.headers = Map.copyOf(headers);
    }

    /** The error code, which fixes the HTTP status. */
    public ApiErrorCode code() {
        return code;
    }

    /** The job concerned, if any. */
    public String jobId() {
        return jobId;
    }

    /** Extra response headers, e.g. {@code Retry-After}. */
    public Map<String, String> headers() {
        return headers;
    }
}
