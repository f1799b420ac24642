package dev.jobweaver.api.platform.http;

import java.time.Duration;

/**
 * The HTTP layer's bounds. They live in the job API's configuration ({@code jobweaver.api.*}), which a bean of the job
 * feature exposes through this interface, so that this package depends on no feature.
 */
public interface HttpLimits {

    /** The largest request body, in bytes; a 413 over it. */
    int maxBodyBytes();

    /** A page's size when the request gives none. */
    int defaultPageSize();

    /** The largest page size a client may ask for. */
    int maxPageSize();

    /** The {@code Retry-After} of a 503 for an unavailable database. */
    Duration outageRetryAfter();

    /** The body bytes of admitted submissions in flight beyond which a new one is answered 503 overloaded. */
    long maxBytesInFlight();

    /** The {@code Retry-After} of an overloaded 503. */
    Duration overloadedRetryAfter();
}
