package dev.jobweaver.api.notification;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.UUID;

/**
 * One notification of one subscription (table {@code deliveries}); its id is the {@code webhook-id}. Written by the
 * intake and the sender with the SQL client (set-based, on the hot paths), read here for the delivery log.
 */
@Entity
@Table(name = "deliveries")
public class Delivery extends PanacheEntityBase {

    @Id
    public UUID id;

    @Column(name = "subscription_id")
    public UUID subscriptionId;

    @Column(name = "job_id")
    public UUID jobId;

    public String event;

    /** The exact JSON sent. */
    public String body;

    /** {@code DeliveryState} name. */
    public String state;

    public int attempts;

    @Column(name = "next_attempt_at")
    public Instant nextAttemptAt;

    @Column(name = "changed_at")
    public Instant changedAt;

    @Column(name = "created_at")
    public Instant createdAt;

    @Column(name = "finished_at")
    public Instant finishedAt;
}
