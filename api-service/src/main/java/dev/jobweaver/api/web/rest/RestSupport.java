package dev.jobweaver.api.web.rest;

import dev.jobweaver.api.job.config.JobApiConfig;
import dev.jobweaver.api.job.service.JobMetrics;
import dev.jobweaver.api.web.rest.UuidText;
import dev.jobweaver.common.error.ApiErrorCode;
import dev.jobweaver.common.job.JobControlRules;
import dev.jobweaver.common.quarantine.Failures;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;
import java.util.Map;
import java.util.UUID;

/**
 * What the REST resources share: reading path and query parameters, the body's size bound, counting refused requests,
 * and answering a database outage with a 503.
 */
@Singleton
public class RestSupport {


    private final JobMetrics metrics;
    private final JobApiConfig config;

    public RestSupport(JobMetrics metrics, JobApiConfig config) {
        this.metrics = metrics;
        this.config = config;
    }

    /**
     * A 503 with {@code Retry-After} when the database is unreachable or overloaded: the client's request was fine and
     * may be repeated. A permanent failure stays a 500.
     */
    public <T> Uni<T> unavailableOnOutage(Uni<T> call, String what) {
        return call.onFailure(e -> !(e instanceof ApiException) && Failures.isTransient(e)).transform(e ->
                new ApiException(ApiErrorCode.SERVICE_UNAVAILABLE, what + ": the database is unavailable ("
                        + Failures.describe(e) + "); retry later", null,
                        Map.of("Retry-After", Long.toString(Math.max(1, config.publish().retryAfter().toSeconds())))));
    }

    /** The path parameter {@code name}; 400 when it is not a UUID. */
    public UUID uuid(String name, String value) {
        if (!UuidText.matches(value)) {
            throw refused(new ApiException(ApiErrorCode.INVALID_PARAMETER,
                    "path parameter " + name + " must be a UUID such as " + UuidText.EXAMPLE));
        }
        return UUID.fromString(value);
    }

    /** The tenant filter, null when absent; 400 when it is not a tenant name. */
    public String tenant(String value) {
        if (value == null || value.isEmpty()) {
            return null;
        }
        if (!JobControlRules.TENANT.matcher(value).matches()) {
            throw refused(new ApiException(ApiErrorCode.INVALID_PARAMETER, "query parameter tenant must match"
                    + " [a-z0-9][a-z0-9-]{0,62}, got '" + (value.length() > 40 ? value.substring(0, 40) + "..." : value)
                    + "'"));
        }
        return value;
    }

    /** The 0-based page number. */
    public int page(String value) {
        return integer("page", value, 0, 0, Integer.MAX_VALUE / 1000);
    }

    /** The page size. */
    public int size(String value) {
        return integer("size", value, config.paging().defaultSize(), 1, config.paging().maxSize());
    }

    /** An integer query parameter within {@code min..max}, {@code fallback} when absent; 400 otherwise. */
    public int integer(String name, String value, int fallback, int min, int max) {
        if (value == null || value.isEmpty()) {
            return fallback;
        }
        try {
            int parsed = Integer.parseInt(value);
            if (parsed >= min && parsed <= max) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw refused(new ApiException(ApiErrorCode.INVALID_PARAMETER,
                "query parameter " + name + " must be an integer between " + min + " and " + max + ", got '"
                        + (value.length() > 40 ? value.substring(0, 40) + "..." : value) + "'"));
    }

    /** The largest body a workflow request may have; a 413 over it. */
    public void checkSize(byte[] body) {
        int limit = config.validation().maxBodyBytes();
        if (body != null && body.length > limit) {
            throw refused(new ApiException(ApiErrorCode.PAYLOAD_TOO_LARGE,
                    "request body is larger than " + limit + " bytes (" + (limit / 1024) + " KiB)"));
        }
    }

    /** {@code e}, counted as a refused request. */
    public ApiException refused(ApiException e) {
        metrics.validationFailure(e.code().code());
        return e;
    }

    /** The paging configuration, for the page counts. */
    public JobApiConfig config() {
        return config;
    }
}
