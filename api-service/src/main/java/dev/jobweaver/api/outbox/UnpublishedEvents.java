package dev.jobweaver.api.outbox;

import io.smallrye.mutiny.Uni;
import java.time.Duration;

/**
 * Events committed to the database that the publish right after their commit may not have brought to Kafka: the job
 * outbox (its {@code OutboxSweeper}), or the rows of a feature that carry their own unpublished state (schedules, tenant
 * limits, workflow runs). {@link Republisher} calls {@link #publishOldest} every {@link Rounds#every()}, round after
 * round while a round finds a full batch and Kafka takes some of it.
 *
 * <p>Contract: a round publishes at most {@link Rounds#batchSize()} events, oldest first, and marks as published
 * (deletes or records in the row) only those Kafka acknowledged, so what fails is found again by a later round. It
 * never holds a row lock while Kafka answers unless it claims the rows for itself ({@code SKIP LOCKED}). A round may
 * find events that another instance, or the publish after the commit, is sending at the same moment: their readers
 * take a repeat once. It runs on a Vert.x event loop and must not block.
 */
public interface UnpublishedEvents {

    /** Its rounds' name, how often they start and how many events one publishes at most. */
    Rounds rounds();

    /**
     * Publishes at most {@link Rounds#batchSize()} of the oldest unpublished events; answers what it found and
     * published.
     */
    Uni<Round> publishOldest();

    /**
     * How a source's rounds run.
     *
     * @param identity  the rounds' name in the scheduler and in log lines, say {@code schedule-republisher}
     * @param every     how often the rounds start
     * @param batchSize most events one round publishes; a round that finds this many is followed by the next at once
     */
    record Rounds(String identity, Duration every, int batchSize) {

        /** Rounds as a feature's {@link RepublishConfig} sets them. */
        public static Rounds of(String identity, RepublishConfig config) {
            return new Rounds(identity, config.republishInterval(), config.republishBatchSize());
        }
    }

    /** What one round did: how many events it found, and how many of them Kafka acknowledged. */
    record Round(int found, int published) {
    }
}
