package dev.jobweaver.api.platform.http;

import dev.jobweaver.api.platform.db.Slice;
import dev.jobweaver.common.job.JobControlRules;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.quarantine.Failures;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * What the REST resources share: reading path and query parameters, paging, the body's size bound, answering a missing
 * or hidden row with its 404, counting refused requests, and answering a database outage with a 503.
 */
@Singleton
public class RestSupport {

    /** A page asked for: its 0-based number and its size, both checked. */
    public record Paging(int page, int size) {

        /** The pages of {@code size} that {@code total} items need. */
        public int pages(long total) {
            return (int) ((total + size - 1) / size);
        }

        /** {@code slice}'s items shown as {@code view}, as the page record {@code page} makes. */
        public <S, V, P> P of(Slice<S> slice, Function<S, V> view, PageOf<V, P> page) {
            return of(slice.items().stream().map(view).toList(), slice.total(), page);
        }

        /** {@code items}, this page of {@code total}, as the page record that {@code page} makes (JobPage::new). */
        public <V, P> P of(List<V> items, long total, PageOf<V, P> page) {
            return page.of(items, this.page, size, total, pages(total));
        }
    }

    /** The canonical constructor of a resource's page record. */
    @FunctionalInterface
    public interface PageOf<V, P> {

        P of(List<V> items, int page, int size, long totalElements, int totalPages);
    }

    @Inject HttpMetrics metrics;
    @Inject HttpLimits limits;

    /**
     * A 503 with {@code Retry-After} when the database is unreachable or overloaded: the client's request was fine and
     * may be repeated. A permanent failure stays a 500.
     */
    public <T> Uni<T> unavailableOnOutage(Uni<T> call, String what) {
        return call.onFailure(e -> !(e instanceof RefusedException) && Failures.isTransient(e)).transform(e ->
                new ApiException(ApiErrorCode.SERVICE_UNAVAILABLE, what + ": the database is unavailable ("
                        + Failures.describe(e) + "); retry later", null, retryAfter()));
    }

    /** The {@code Retry-After} header of a 503: how long a client waits before it repeats the request. */
    public Map<String, String> retryAfter() {
        return Map.of("Retry-After", Long.toString(Math.max(1, limits.outageRetryAfter().toSeconds())));
    }

    /** The path parameter {@code name}; 400 when it is not a UUID. */
    public UUID uuid(String name, String value) {
        if (!UuidText.matches(value)) {
            throw refused(new ApiException(ApiErrorCode.INVALID_PARAMETER,
                    "path parameter " + name + " must be a UUID such as " + UuidText.EXAMPLE));
        }
        return UUID.fromString(value);
    }

    /** The job type filter {@code name}, null when absent; 400 when it is not a type's name. */
    public JobType jobType(String name, String value) {
        if (value == null || value.isEmpty()) {
            return null;
        }
        if (!JobType.isValid(value)) {
            throw refused(new ApiException(ApiErrorCode.INVALID_PARAMETER, "query parameter " + name + " must be a"
                    + " job type's name, " + JobType.PATTERN + ", got '" + ClientText.cut(value) + "'"));
        }
        return JobType.of(value);
    }

    /** The queue filter, null when absent; 400 when it is not a queue's name. */
    public String queue(String value) {
        if (value == null || value.isEmpty()) {
            return null;
        }
        if (!JobControlRules.QUEUE.matcher(value).matches()) {
            throw refused(new ApiException(ApiErrorCode.INVALID_PARAMETER, "query parameter queue must match"
                    + " [a-z0-9][a-z0-9-]{0,62}, got '" + ClientText.cut(value) + "'"));
        }
        return value;
    }

    /** The tenant filter, null when absent; 400 when it is not a tenant name. */
    public String tenant(String value) {
        if (value == null || value.isEmpty()) {
            return null;
        }
        if (!JobControlRules.TENANT.matcher(value).matches()) {
            throw refused(new ApiException(ApiErrorCode.INVALID_PARAMETER, "query parameter tenant must match"
                    + " [a-z0-9][a-z0-9-]{0,62}, got '" + ClientText.cut(value) + "'"));
        }
        return value;
    }

    /** The tenant filter of a list, null when absent; 400 when it is not a tenant name. */
    public String tenant(TenantQuery query) {
        return tenant(query.tenant);
    }

    /** The path parameter tenant; 400 with {@code code} when it is missing or breaks the tenant rule. */
    public String tenantPath(String value, ApiErrorCode code) {
        if (value == null || !JobControlRules.TENANT.matcher(value).matches()) {
            throw refused(new ApiException(code, "path parameter tenant must match [a-z0-9][a-z0-9-]{0,62}, got '"
                    + (value == null ? "" : ClientText.cut(value)) + "'"));
        }
        return value;
    }

    /** The page and size query parameters, read in that order. */
    public Paging paging(PageQuery query) {
        return new Paging(page(query.page), size(query.size));
    }

    /** The 0-based page number. */
    public int page(String value) {
        return integer("page", value, 0, 0, Integer.MAX_VALUE / 1000);
    }

    /** The page size. */
    public int size(String value) {
        return integer("size", value, limits.defaultPageSize(), 1, limits.maxPageSize());
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
                        + ClientText.cut(value) + "'"));
    }

    /** The largest body a request may have; a 413 over it. */
    public void checkSize(byte[] body) {
        int limit = limits.maxBodyBytes();
        if (body != null && body.length > limit) {
            throw refused(new ApiException(ApiErrorCode.PAYLOAD_TOO_LARGE,
                    "request body is larger than " + limit + " bytes (" + (limit / 1024) + " KiB)"));
        }
    }

    /**
     * What {@code lookup} found; {@code notFound} when it found nothing or a row {@code visible} refuses (another
     * tenant's, which must look like none), before anything is changed.
     */
    public static <T> Uni<T> visible(Uni<T> lookup, Predicate<T> visible, Supplier<ApiException> notFound) {
        return lookup.map(found -> {
            if (found == null || !visible.test(found)) {
                throw notFound.get();
            }
            return found;
        });
    }

    /** {@code value}; {@code notFound} when it is null (the row went meanwhile). */
    public static <T> T found(T value, Supplier<ApiException> notFound) {
        if (value == null) {
            throw notFound.get();
        }
        return value;
    }

    /** A 204 when {@code done}; {@code notFound} when nothing was there to change. */
    public static RestResponse<Void> noContent(boolean done, Supplier<ApiException> notFound) {
        if (!done) {
            throw notFound.get();
        }
        return RestResponse.noContent();
    }

    /** {@code e}, counted as a refused request. */
    public <E extends RefusedException> E refused(E e) {
        metrics.validationFailure(e.code().code());
        return e;
    }

    /** The body and paging bounds. */
    public HttpLimits limits() {
        return limits;
    }
}
