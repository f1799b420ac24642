package dev.jobweaver.api.deadletter;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Typed configuration of the dead-letter review ({@code jobweaver.api.dead-letters.*}). */
@ConfigMapping(prefix = "jobweaver.api.dead-letters")
public interface DeadLetterConfig {

    /**
     * How often {@code jobweaver_dead_letters_open} is counted again from the table (also
     * {@code jobweaver.api.dead-letters.open-refresh} in {@code @Scheduled}): a scrape reads the last count and never
     * waits for the database.
     */
    @WithDefault("15s")
    Duration openRefresh();

    /**
     * How many REQUEUE commands a bulk requeue has in flight to Kafka at once: enough that a thousand take about as
     * long as a few dozen one after the other, few enough not to crowd the cancels and deletes sharing the producer.
     */
    @WithDefault("16")
    int requeueConcurrency();
}
