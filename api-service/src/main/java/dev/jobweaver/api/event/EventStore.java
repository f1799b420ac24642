package dev.jobweaver.api.event;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.api.job.store.JsonColumns;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * The statements of application events ({@code application_events}, and the trigger lookup on {@code workflows}), all
 * in the caller's Panache transaction, on its session's connection: the runs an event starts are stored by
 * {@code WorkflowRunService} in that same transaction, so the event's row, its runs and its answer commit together.
 * Native SQL with {@code cast(...)} rather than {@code ::}, which Hibernate would read as a parameter.
 */
@ApplicationScoped
public class EventStore {

    /**
     * Claims the event's id for this transaction. A row committed before makes it insert nothing; a row another
     * transaction inserted and has not committed makes it wait for that commit, then insert nothing: two requests of
     * one event never both claim it.
     */
    private static final String CLAIM = """
            INSERT INTO application_events (tenant, id, type, data, runs, received_at)
            VALUES (:tenant, :id, :type, cast(cast(:data as text) as jsonb), cast('{}' as uuid[]), :receivedAt)
            ON CONFLICT (tenant, id) DO NOTHING""";

    /** An event stored before: whether it is the same (type and data, jsonb equality) and the runs it started. */
    private static final String FIND = """
            SELECT cast(jsonb_build_object(
                       'same', type = :type AND data = cast(cast(:data as text) as jsonb),
                       'runs', to_jsonb(runs)) as text)
            FROM application_events WHERE tenant = :tenant AND id = :id""";

    /** The live workflows of the tenant listening to the type, oldest first (the answer's order); the GIN index. */
    private static final String LISTENERS = """
            SELECT cast(id as text) FROM workflows
            WHERE deleted_at IS NULL AND triggers IS NOT NULL AND triggers @> ARRAY[cast(:type as text)]
              AND tenant = :tenant
            ORDER BY created_at, id""";

    private static final String ANSWER = """
            UPDATE application_events SET runs = cast(cast(:runs as text) as uuid[])
            WHERE tenant = :tenant AND id = :id""";

    /** An event stored before, as a repeat finds it. */
    public record Stored(boolean same, List<UUID> runs) {
    }

    /** Claims {@code id} of {@code tenant} for the caller's transaction: true when the event is new. */
    public Uni<Boolean> claim(String tenant, String id, String type, JsonNode data, Instant receivedAt) {
        return Panache.getSession().chain(session -> session.createNativeQuery(CLAIM)
                .setParameter("tenant", tenant)
                .setParameter("id", id)
                .setParameter("type", type)
                .setParameter("data", JsonColumns.write(data))
                .setParameter("receivedAt", receivedAt)
                .executeUpdate()).map(inserted -> inserted == 1);
    }

    /** The event {@code id} of {@code tenant}, compared with {@code type} and {@code data}; null when there is none. */
    public Uni<Stored> find(String tenant, String id, String type, JsonNode data) {
        return Panache.getSession().chain(session -> session.createNativeQuery(FIND, String.class)
                .setParameter("tenant", tenant)
                .setParameter("id", id)
                .setParameter("type", type)
                .setParameter("data", JsonColumns.write(data))
                .getSingleResultOrNull()).map(EventStore::stored);
    }

    /** The ids of the tenant's live workflows whose triggers name {@code type}, oldest first. */
    public Uni<List<UUID>> listeners(String tenant, String type) {
        return Panache.getSession().chain(session -> session.createNativeQuery(LISTENERS, String.class)
                .setParameter("tenant", tenant)
                .setParameter("type", type)
                .getResultList()).map(ids -> ids.stream().map(UUID::fromString).toList());
    }

    /** Stores the runs the event started, its answer to every repeat. */
    public Uni<Void> answer(String tenant, String id, List<UUID> runs) {
        String array = runs.stream().map(UUID::toString).collect(Collectors.joining(",", "{", "}"));
        return Panache.getSession().chain(session -> session.createNativeQuery(ANSWER)
                .setParameter("tenant", tenant)
                .setParameter("id", id)
                .setParameter("runs", array)
                .executeUpdate()).replaceWithVoid();
    }

    private static Stored stored(String json) {
        if (json == null) {
            return null;
        }
        JsonNode row;
        try {
            row = JsonColumns.mapper().readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("an event's row does not read: " + e.getMessage(), e);
        }
        List<UUID> runs = new ArrayList<>();
        row.path("runs").forEach(run -> runs.add(UUID.fromString(run.asText())));
        return new Stored(row.path("same").asBoolean(false), List.copyOf(runs));
    }
}
