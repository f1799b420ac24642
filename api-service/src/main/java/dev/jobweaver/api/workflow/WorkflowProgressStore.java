package dev.jobweaver.api.workflow;

import dev.jobweaver.api.platform.db.RowsById;
import dev.jobweaver.common.batch.Columns;
import dev.jobweaver.common.workflow.WorkflowRunStatus;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The progress consumer's side of {@code workflow_runs}, with the reactive PostgreSQL client on the connection of the
 * transaction that also makes the ready nodes' jobs (an entity session has a connection of its own). Plain SQL: one
 * statement per poll for the reads and one for the updates.
 */
@ApplicationScoped
public class WorkflowProgressStore {

    /**
     * The runs with what their node jobs are made from (their version's graph), locked: two polls that report the same
     * run (a redelivery beside a new event) apply one after the other.
     */
    private static final String FIND = """
            SELECT r.id, r.workflow_id, r.workflow_version, r.tenant, r.input::text AS input, r.trace_id,
                   r.traceparent, r.progress_version, r.status, v.nodes::text AS definition, v.max_concurrency
            FROM workflow_runs r
            JOIN workflow_versions v ON v.workflow_id = r.workflow_id AND v.version = r.workflow_version
            WHERE r.id = ANY($1::uuid[])
            ORDER BY r.id
            FOR UPDATE OF r
            """;

    /** Only where the event is newer than what the row holds: an older one changes nothing. */
    private static final String APPLY = """
            UPDATE workflow_runs r
            SET status = t.status, nodes = t.nodes::jsonb, progress_version = t.version, finished_at = t.finished_at,
                updated_at = now()
            FROM unnest($1::uuid[], $2::text[], $3::text[], $4::int8[], $5::timestamptz[])
                 AS t(id, status, nodes, version, finished_at)
            WHERE r.id = t.id AND r.progress_version < t.version
            RETURNING r.id
            """;

    /**
     * A run as its progress needs it.
     *
     * @param inputJson the run's input (JSON text), or null
     * @param definitionJson its version's nodes, with their jobs (JSON text)
     * @param status its status before this poll, as the row holds it
     */
    public record Run(UUID id, UUID workflowId, int version, String tenant, String inputJson, String traceId,
                      String traceparent, long progressVersion, String definitionJson, Integer maxConcurrency,
                      WorkflowRunStatus status) {
    }

    /** A run's new state. */
    public record Change(UUID runId, String status, String nodesJson, long version, Instant finishedAt) {
    }

    /** The runs among {@code ids} the table holds, by id, locked on {@code connection}. */
    public Uni<Map<UUID, Run>> find(SqlConnection connection, Collection<UUID> ids) {
        return RowsById.find(connection, FIND, ids, row -> new Run(row.getUUID("id"), row.getUUID("workflow_id"),
                row.getInteger("workflow_version"), row.getString("tenant"), row.getString("input"),
                row.getString("trace_id"), row.getString("traceparent"), row.getLong("progress_version"),
                row.getString("definition"), row.getInteger("max_concurrency"),
                WorkflowRunStatus.valueOf(row.getString("status"))));
    }

    /** Applies each change newer than its row's; how many rows changed. */
    public Uni<Integer> apply(SqlConnection connection, List<Change> changes) {
        if (changes.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        Tuple parameters = Tuple.tuple();
        parameters.addValue(Columns.of(changes, Change::runId, UUID[]::new));
        parameters.addValue(Columns.of(changes, Change::status, String[]::new));
        parameters.addValue(Columns.of(changes, Change::nodesJson, String[]::new));
        parameters.addValue(Columns.of(changes, Change::version, Long[]::new));
        parameters.addValue(Columns.of(changes, c -> c.finishedAt() == null ? null
                : c.finishedAt().atOffset(ZoneOffset.UTC), OffsetDateTime[]::new));
        return connection.preparedQuery(APPLY).execute(parameters).map(rows -> rows.rowCount());
    }
}
