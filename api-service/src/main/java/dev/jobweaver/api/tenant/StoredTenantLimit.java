package dev.jobweaver.api.tenant;

import dev.jobweaver.common.event.TenantLimitEvent;
import java.time.Instant;

/**
 * A tenant's limit as stored: {@code maxRunning} null when it was removed.
 *
 * @param version the row's version, that of its event
 */
record StoredTenantLimit(String tenant, Integer maxRunning, long version, Instant updatedAt) {

    public static StoredTenantLimit of(TenantLimit row) {
        return new StoredTenantLimit(row.tenant, row.maxRunning, row.version, row.updatedAt);
    }

    /** The event that publishes this version. */
    public TenantLimitEvent event() {
        return new TenantLimitEvent(tenant, version, maxRunning, updatedAt);
    }
}
