package dev.jobweaver.api.tenant;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Typed configuration of tenant concurrency limits ({@code jobweaver.api.tenant-limits.*}). */
@ConfigMapping(prefix = "jobweaver.api.tenant-limits")
public interface TenantLimitConfig {

    /**
     * How often the republisher looks for limits whose latest change Kafka has not acknowledged (a crash or a Kafka
     * outage between the commit and the publish) and limits due for a refresh (the interval of its rounds in the
     * outbox's republish loop).
     */
    @WithDefault("5s")
    Duration republishInterval();

    /**
     * How long a limit's published event may stay unrepublished. {@code tenant-limits} is compacted with a retention of
     * 7 days ({@code Topics.COMPACTED_RETENTION}), after which even a key's last record expires; republishing every
     * limit well within it keeps every limit on the topic for a scheduler that reads it from the start.
     */
    @WithDefault("3d")
    Duration refreshAfter();

    /** Most limits one republisher round publishes; a full round is followed by the next at once. */
    @WithDefault("100")
    int republishBatchSize();
}
