package dev.jobweaver.api.hook;

import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.UUID;

/**
 * Publishes application events for hooks whose target is an event type: the one thing the hook package needs of
 * events, so that it does not depend on how they are stored or which workflows they start. Called on the request's
 * Vert.x event loop; an implementation must not block it.
 */
public interface EventPublisher {

    /** What a published event started: its id and the runs (the first publication's, for a repeat). */
    record Published(String eventId, List<UUID> runs) {
    }

    /**
     * Publishes event {@code eventId} of {@code type} with {@code data} in {@code tenant}: the same id again starts
     * nothing new and is answered with the runs it started. Fails with {@link IllegalArgumentException} when the event
     * is larger than a run's input may be.
     *
     * @param eventId the hook derives it from its id and the call's signature, so a signed call repeated within the
     *                time window publishes the same event
     */
    Uni<Published> publish(String tenant, String eventId, String type, JsonNode data);
}
