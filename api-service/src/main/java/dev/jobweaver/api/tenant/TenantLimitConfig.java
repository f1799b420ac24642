package dev.jobweaver.api.tenant;

import dev.jobweaver.api.outbox.RepublishConfig;
import io.smallrye.config.ConfigMapping;

/**
 * Typed configuration of tenant concurrency limits ({@code jobweaver.api.tenant-limits.*}): how their republisher
 * runs.
 */
@ConfigMapping(prefix = "jobweaver.api.tenant-limits")
public interface TenantLimitConfig extends RepublishConfig {
}
