package dev.jobweaver.api.notification;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/** One attempt of a delivery (table {@code delivery_attempts}): when, the answer's status or the error, how long. */
@Entity
@Table(name = "delivery_attempts")
@IdClass(DeliveryAttempt.Key.class)
public class DeliveryAttempt extends PanacheEntityBase {

    @Id
    public UUID deliveryId;

    @Id
    public int attempt;

    public Instant attemptedAt;

    /** The HTTP status answered; null when there was no answer. */
    public Integer status;

    public String error;

    public long durationMs;

    /** The primary key: (delivery, attempt). */
    public static class Key implements Serializable {

        public UUID deliveryId;
        public int attempt;

        public Key() {
        }

        public Key(UUID deliveryId, int attempt) {
            this.deliveryId = deliveryId;
            this.attempt = attempt;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Key key && attempt == key.attempt && Objects.equals(deliveryId, key.deliveryId);
        }

        @Override
        public int hashCode() {
            return Objects.hash(deliveryId, attempt);
        }
    }
}
