package dev.jobweaver.api.outbox;

import io.smallrye.config.WithDefault;
import java.time.Duration;

/**
 * How the republisher of a feature whose rows are their own outbox, on a compacted topic, runs its rounds: what a
 * feature's {@code @ConfigMapping} extends under its own prefix (say {@code jobweaver.api.schedules.*}).
 */
public interface RepublishConfig {

    /**
     * How often the republisher looks for rows whose latest change Kafka has not acknowledged (a crash or a Kafka
     * outage between the commit and the publish), rows due for a refresh, and, where rows are deleted, deleted rows
     * awaiting their tombstone (the interval of its rounds in the outbox's republish loop).
     */
    @WithDefault("5s")
    Duration republishInterval();

    /**
     * How long a row's published event may stay unrepublished. The topic is compacted with a retention of 7 days
     * ({@code Topics.COMPACTED_RETENTION}), after which even a key's last record expires; republishing every row well
     * within it keeps every live row on the topic for a scheduler that reads it from the start.
     */
    @WithDefault("3d")
    Duration refreshAfter();

    /** Most rows one republisher round publishes; a full round is followed by the next at once. */
    @WithDefault("100")
    int republishBatchSize();
}
