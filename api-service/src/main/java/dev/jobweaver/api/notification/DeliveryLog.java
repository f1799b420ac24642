package dev.jobweaver.api.notification;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/** {@code GET /api/subscriptions/{id}/deliveries}: newest first. */
@RegisterForReflection
public record DeliveryLog(List<DeliveryLogEntry> deliveries) {
}
