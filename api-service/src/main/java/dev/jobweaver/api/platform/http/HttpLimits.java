package dev.jobweaver.api.platform.http;

import java.time.Duration;

/**
 * The HTTP layer's bounds. They live in the job API's configuration ({@code jobweaver.api.*}), which a bean of the job
 * feature reads into this record, so that this package depends on no feature.
 *
 * @param maxBodyBytes         the largest request body, in bytes; a 413 over it
 * @param defaultPageSize      a page's size when the request gives none
 * @param maxPageSize          the largest page size a client may ask for
 * @param outageRetryAfter     the {@code Retry-After} of a 503 for an unavailable database
 * @param maxBytesInFlight     the body bytes of admitted submissions in flight beyond which a new one is answered 503
 *                             overloaded
 * @param overloadedRetryAfter the {@code Retry-After} of an overloaded 503
 */
public record HttpLimits(int maxBodyBytes, int defaultPageSize, int maxPageSize, Duration outageRetryAfter,
                         long maxBytesInFlight, Duration overloadedRetryAfter) {
}
