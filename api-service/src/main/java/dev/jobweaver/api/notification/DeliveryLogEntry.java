package dev.jobweaver.api.notification;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.UUID;

/**
 * One line of a subscription's delivery log: an attempt of a delivery, or (attempt 0, no time, status, error or
 * duration) a delivery not attempted yet.
 *
 * @param jobId the job whose change it tells; null for a workflow run's end
 * @param runId the workflow run whose end it tells ({@code workflow.completed}, ...); absent for a job's change
 * @param status the HTTP status answered; null without an answer
 * @param state the delivery's state now: PENDING, DELIVERED or GIVEN_UP
 */
@RegisterForReflection
public record DeliveryLogEntry(UUID deliveryId, String event, UUID jobId,
                               @JsonInclude(JsonInclude.Include.NON_NULL) UUID runId, int attempt,
                               Instant attemptedAt, Integer status, String error, Long durationMs, String state) {
}
