package dev.jobweaver.api.audit;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Typed configuration of the audit log ({@code jobweaver.audit.*}). */
@ConfigMapping(prefix = "jobweaver.audit")
public interface AuditConfig {

    /** How long an entry is kept; older ones are deleted by the cleanup. */
    @WithDefault("90d")
    Duration retention();

    /** How often the cleanup runs (also {@code jobweaver.audit.cleanup-interval} in {@code @Scheduled}). */
    @WithDefault("1h")
    Duration cleanupInterval();

    /** How many entries one delete statement of the cleanup takes, so that none holds its locks long. */
    @WithDefault("5000")
    int cleanupBatchSize();

    /**
     * The longest an answer waits for its entry to be written; past it the answer goes out and the write counts as
     * failed ({@code jobweaver_audit_write_failures_total}).
     */
    @WithDefault("5s")
    Duration writeTimeout();
}
