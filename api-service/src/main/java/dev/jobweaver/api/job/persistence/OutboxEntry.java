package dev.jobweaver.api.job.persistence;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.UUID;

/**
 * A job whose {@code JobCreatedEvent} Kafka has not acknowledged yet.
 *
 * <p>Written in the same transaction as the job, deleted once Kafka acknowledged the event (or, with the job marked
 * {@code REJECTED}, once the client was told 503). A row that outlives its request is published by the sweeper.
 */
@Entity
@Table(name = "job_outbox")
public class OutboxEntry {

    @Id
    @Column(name = "job_id")
    public UUID jobId;

    @Column(name = "event_id", nullable = false)
    public UUID eventId;

    /** W3C {@code traceparent} of the submitting request. */
    @Column(name = "traceparent")
    public String traceparent;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    /** The outbox row of a job accepted now. */
    public static OutboxEntry of(UUID jobId, UUID eventId, String traceparent, Instant now) {
        OutboxEntry entry = new OutboxEntry();
        entry.jobId = jobId;
        entry.eventId = eventId;
        entry.traceparent = traceparent;
        entry.createdAt = now;
        return entry;
    }
}
