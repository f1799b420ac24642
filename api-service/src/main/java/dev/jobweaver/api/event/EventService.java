package dev.jobweaver.api.event;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobweaver.api.workflow.WorkflowRunService;
import dev.jobweaver.common.job.JobIds;
import io.opentelemetry.context.Context;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Publishes application events: each starts one run of every live workflow of its tenant whose triggers name its type,
 * with the event ({@code {"id","type","data"}}) as the run's input.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>Exactly once per (tenant, event id): the event's row, the runs it starts and its answer (the runs' ids) are
 *       written in one transaction, and the row's primary key lets one transaction claim an id ({@link EventStore}).
 *       A repeat, sequential or concurrent (its claim waits for the first one's commit), starts nothing and is
 *       answered with the stored runs, even if workflows' triggers changed in between.</li>
 *   <li>Each run's id is derived from the event ({@link JobIds#forEvent}: tenant, event id, workflow, the time the
 *       event was first received), so it is a function of the event, not of the request that carried it.</li>
 *   <li>A run's {@code START} is published only after the commit; one Kafka does not acknowledge is published later by
 *       the runs' republisher, as for any run.</li>
 *   <li>An id used again with another type or other data starts nothing: {@link EventIdConflictException}.</li>
 * </ul>
 * Called on a Vert.x event loop (a request's), where Hibernate Reactive's session lives; never blocks.
 */
@ApplicationScoped
public class EventService {

    private final EventStore store;
    private final WorkflowRunService runs;

    public EventService(EventStore store, WorkflowRunService runs) {
        this.store = store;
        this.runs = runs;
    }

    /**
     * What publishing an event came to.
     *
     * @param runs the runs it started, oldest listening workflow first; empty when no workflow listens
     * @param repeated whether the event had been published before (nothing was started now)
     */
    public record Published(String eventId, List<UUID> runs, boolean repeated) {
    }

    /** The event as a run's input: {@code {"id","type","data"}}. */
    public static ObjectNode input(String id, String type, JsonNode data) {
        ObjectNode input = JsonNodeFactory.instance.objectNode();
        input.put("id", id);
        input.put("type", type);
        input.set("data", data == null ? NullNode.instance : data);
        return input;
    }

    /** Why the event cannot be a run's input (too large), naming {@code data}; null when it can. */
    public String inputProblem(String id, String type, JsonNode data) {
        String problem = runs.inputProblem(input(id, type, data));
        return problem == null ? null
                : "data: the event is its runs' input ({\"id\",\"type\",\"data\"}), and " + problem;
    }

    /**
     * Publishes event {@code id} of {@code tenant}: starts its runs, or answers the runs it started before. Fails with
     * {@link EventIdConflictException} when the id was published with another type or data, and with
     * {@link IllegalArgumentException} when the event is too large to be a run's input.
     *
     * @param parent the context whose span each run's span is a child of (the request's)
     */
    @WithSpan("publish event")
    public Uni<Published> publish(String tenant, String id, String type, JsonNode data, Context parent) {
        JsonNode given = data == null ? NullNode.instance : data;
        ObjectNode input = input(id, type, given);
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        List<WorkflowRunService.PendingStart> started = new ArrayList<>();
        return Panache.withTransaction(() -> store.claim(tenant, id, type, given, now).chain(claimed -> {
            if (!claimed) {
                return store.find(tenant, id, type, given).map(stored -> {
                    if (stored == null || !stored.same()) {
                        // null: gone between the claim and the read, which nothing deletes; answered as a conflict
                        throw new EventIdConflictException(id);
                    }
                    return new Published(id, stored.runs(), true);
                });
            }
            return store.listeners(tenant, type).chain(workflows -> startAll(workflows, tenant, id, input, now,
                    parent, started)).chain(ids -> store.answer(tenant, id, ids)
                    .replaceWith(new Published(id, ids, false)));
        })).invoke(published -> started.forEach(runs::committed));
    }

    /** Starts a run of each workflow, one after the other on the transaction's session; the runs' ids in order. */
    private Uni<List<UUID>> startAll(List<UUID> workflows, String tenant, String id, ObjectNode input, Instant now,
                                     Context parent, List<WorkflowRunService.PendingStart> started) {
        List<UUID> ids = new ArrayList<>(workflows.size());
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (UUID workflowId : workflows) {
            UUID runId = JobIds.forEvent(tenant, id, workflowId, now);
            chain = chain.chain(() -> runs.startInTransaction(runId, workflowId, input, parent).invoke(start -> {
                // null: the workflow was deleted after the lookup; it starts nothing
                if (start != null) {
                    started.add(start);
                    ids.add(start.run().runId());
                }
            })).replaceWithVoid();
        }
        return chain.map(ignored -> List.copyOf(ids));
    }

    /** The tenant published an event with this id before, of another type or with other data. */
    public static final class EventIdConflictException extends RuntimeException {

        public EventIdConflictException(String id) {
            super("event '" + id + "' was published before with another type or other data; an event id names one"
                    + " event: give this one an id of its own");
        }
    }
}
