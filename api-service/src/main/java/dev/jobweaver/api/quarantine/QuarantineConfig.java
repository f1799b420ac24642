package dev.jobweaver.api.quarantine;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Typed configuration of the quarantine review ({@code jobweaver.api.quarantine.*}). */
@ConfigMapping(prefix = "jobweaver.api.quarantine")
public interface QuarantineConfig {

    /**
     * How often {@code jobweaver_quarantine_records_kept} is counted again from the table (also read by
     * {@code @Scheduled}): a scrape reads the last count and never waits for the database.
     */
    @WithDefault("15s")
    Duration keptRefresh();

    /**
     * The longest a replay waits for Kafka's acknowledgement of the record it publishes again; past it the answer is
     * a 503 and the record stays {@code KEPT}. Also the producer's delivery timeout, so that a replay given up on is,
     * but for a race at the very end, never delivered later.
     */
    @WithDefault("10s")
    Duration replayTimeout();
}
