package dev.jobweaver.api.notification;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A subscription as the API shows it: its one target, its events and URL. {@code secret} only in the answer to its
 * creation, never again.
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SubscriptionView(UUID id, UUID jobId, UUID scheduleId, UUID workflowId, String jobType,
                               List<String> events, String url, Instant createdAt,
                               @Schema(description = "whsec_ and base64 of the signing key (Standard Webhooks); shown"
                                       + " once, in the answer to the creation") String secret) {

    /** {@code subscription} without its secret. */
    public static SubscriptionView of(Subscription subscription) {
        return new SubscriptionView(subscription.id, subscription.jobId, subscription.scheduleId,
                subscription.workflowId, subscription.jobType, List.of(subscription.events), subscription.url,
                subscription.createdAt, null);
    }

    /** {@code subscription} with its secret: the answer to its creation. */
    public static SubscriptionView withSecret(Subscription subscription) {
        SubscriptionView view = of(subscription);
        return new SubscriptionView(view.id, view.jobId, view.scheduleId, view.workflowId, view.jobType, view.events,
                view.url, view.createdAt, subscription.secret);
    }
}
