package dev.jobweaver.api.event;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.api.hook.EventPublisher;
import io.opentelemetry.context.Context;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Publishes the events of inbound hooks whose target is an event type, as {@code POST /api/events} publishes one: the
 * hook derives the event's id from its id and the call's signature, so a signed call repeated within its time window
 * finds the event the first call published and is answered with its runs.
 */
@ApplicationScoped
public class HookEvents implements EventPublisher {

    private final EventService events;

    public HookEvents(EventService events) {
        this.events = events;
    }

    /**
     * Runs on the request's event loop. An event larger than a run's input fails with {@link IllegalArgumentException},
     * which the hook answers as a 413 naming it. Another call's event under the same id cannot be: the id covers the
     * call's signature, so a conflict means the same id and other data, which the signature rules out.
     */
    @Override
    public Uni<Published> publish(String tenant, String eventId, String type, JsonNode data) {
        String problem = events.inputProblem(eventId, type, data);
        if (problem != null) {
            return Uni.createFrom().failure(new IllegalArgumentException(problem));
        }
        return events.publish(tenant, eventId, type, data, Context.current())
                .map(published -> new Published(published.eventId(), published.runs()));
    }
}
