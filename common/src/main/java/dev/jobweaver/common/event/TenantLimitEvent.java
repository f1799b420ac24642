package dev.jobweaver.common.event;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;

/**
 * A tenant's concurrency limit as the API last stored it ({@code tenant-limits}, compacted, keyed by tenant): at most
 * {@code maxRunning} of the tenant's jobs run at once. A removed limit is an event with no {@code maxRunning} at the
 * next version, not a tombstone, so that a reader can order it against the records before it. A reader keeps the
 * highest {@code version} per tenant and ignores older events.
 *
 * @param version per tenant, strictly increasing with every change the API stores
 * @param maxRunning 1 to {@value #MAX_RUNNING}, or null: the tenant has no limit any more
 * @param changedAt when the API stored this version
 */
@RegisterForReflection
public record TenantLimitEvent(String tenant, long version, Integer maxRunning, Instant changedAt) {

    /** The largest limit a tenant may have. */
    public static final int MAX_RUNNING = 100_000;
}
