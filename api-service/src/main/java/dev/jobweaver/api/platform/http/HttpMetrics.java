package dev.jobweaver.api.platform.http;

/**
 * What the HTTP layer counts. The job feature's metrics implement it, so the counters keep their names and this package
 * depends on no feature.
 */
public interface HttpMetrics {

    /** A request refused with a 4xx; {@code reason} is the error code (bounded cardinality). */
    void validationFailure(String reason);

    /** A submission answered 503 overloaded, its body unread. */
    void overloaded();
}
