package dev.jobweaver.api.schedule;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Typed configuration of recurring schedules ({@code jobweaver.api.schedules.*}). */
@ConfigMapping(prefix = "jobweaver.api.schedules")
public interface ScheduleConfig {

    /**
     * How often the republisher looks for schedules whose latest change Kafka has not acknowledged (a crash or a Kafka
     * outage between the commit and the publish), schedules due for a refresh, and deleted schedules awaiting their
     * tombstone (the interval of its rounds in the outbox's republish loop).
     */
    @WithDefault("5s")
    Duration republishInterval();

    /**
     * How long a schedule's published timing may stay unrepublished. {@code schedules} is compacted with a retention of
     * 7 days ({@code Topics.COMPACTED_RETENTION}), after which even a key's last record expires; republishing every
     * schedule well within it keeps every live schedule on the topic for a scheduler that reads it from the start.
     */
    @WithDefault("3d")
    Duration refreshAfter();

    /** Most schedules one republisher round publishes; a full round is followed by the next at once. */
    @WithDefault("100")
    int republishBatchSize();
}
