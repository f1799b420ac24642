package dev.jobweaver.api.notification;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.UUID;

/**
 * One line of a subscription's delivery log: an attempt of a delivery, or (attempt 0, no time, status, error or
 * duration) a delivery not attempted yet.
 *
 * @param status the HTTP status answered; null without an answer
 * @param state the delivery's state now: PENDING, DELIVERED or GIVEN_UP
 */
@RegisterForReflection
public record DeliveryLogEntry(UUID deliveryId, String event, UUID jobId, int attempt, Instant attemptedAt,
                               Integer status, String error, Long durationMs, String state) {
}
