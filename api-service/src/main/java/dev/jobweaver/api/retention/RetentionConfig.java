package dev.jobweaver.api.retention;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/**
 * Typed configuration of retention ({@code jobweaver.api.retention.*}): how long finished jobs and workflow runs,
 * application events and quarantined records are kept, and how the purge runs. A tenant overrides the two job periods
 * with {@code PUT /api/tenants/{tenant}/retention}.
 */
@ConfigMapping(prefix = "jobweaver.api.retention")
public interface RetentionConfig {

    /** How long a {@code COMPLETED} job (and a completed workflow run) is kept after it finished, by default. */
    @WithDefault("7d")
    Duration completedAfter();

    /**
     * How long a {@code FAILED}, {@code CANCELLED} or {@code REJECTED} job (its dead letter with it) and a failed or
     * cancelled workflow run is kept after it finished, by default.
     */
    @WithDefault("30d")
    Duration failedAfter();

    /** How long an application event ({@code POST /api/events}) is kept after it was received; its id is free then. */
    @WithDefault("30d")
    Duration eventsAfter();

    /** How long a quarantined record is kept after the API stored it, whatever its state. */
    @WithDefault("30d")
    Duration quarantinedAfter();

    /**
     * How often the purge runs: a duration ({@code 15s}, {@code PT2S}), or {@code off} for never (the tests that run
     * their rounds themselves). Text, since {@code @Scheduled} reads it too ({@code every}) and takes {@code off}. A
     * job is gone at most about this long after its retention ended, plus the rounds a backlog takes.
     */
    @WithDefault("15s")
    String purgeInterval();

    /** Most jobs (or runs, events, records) one purge transaction removes; a full batch is followed by the next. */
    @WithDefault("500")
    int batchSize();

    /** Most batches one purge round removes of each kind, so that a round ends and the next one starts fresh. */
    @WithDefault("20")
    int maxBatchesPerRound();

    /**
     * The share of its time a purge with a backlog spends removing (above 0, at most 1): after each full batch it
     * pauses for the batch's own time times {@code (1 - duty-cycle) / duty-cycle}. At 0.25 it waits three times as
     * long as a batch took, so a steady load keeps most of the database and Kafka; 1 runs batches back to back.
     */
    @WithDefault("0.25")
    double dutyCycle();

    /**
     * How long a dead letter requeued shields its job, still {@code FAILED} in the read model, from the purge: the
     * scheduler's {@code PENDING} status normally arrives within milliseconds, after which the job is not finished.
     */
    @WithDefault("2m")
    Duration requeueGrace();
}
