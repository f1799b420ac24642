package dev.jobweaver.api.notification;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
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

    public UUID subscriptionId;

    /** The job whose change it tells; null for a workflow run's end. */
    public UUID jobId;

    /** The workflow run whose end it tells; null for a job's change. */
    public UUID runId;

    public String event;

    /** The exact JSON sent. */
    public String body;

    /** {@code DeliveryState} name. */
    public String state;

    public int attempts;

    public Instant nextAttemptAt;

    public Instant changedAt;

    public Instant createdAt;

    public Instant finishedAt;
}
