package dev.jobweaver.api.schedule;

import dev.jobweaver.api.platform.db.RowsById;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.Map;
import java.util.UUID;

/**
 * What a tick needs of its schedule, read in the transaction that makes the tick's job, with the reactive PostgreSQL
 * client (the job's insert runs on the same connection; an entity session has a connection of its own).
 */
@ApplicationScoped
public class ScheduleTargets {

    /**
     * FOR SHARE: a change or delete of the schedule waits for this transaction, so a job is made from the definition
     * the transaction read, and never after its schedule's delete committed. Deleted rows are read too, to tell a
     * deleted schedule (its tombstone on its way) from one the API does not have.
     */
    private static final String FIND = """
            SELECT id, version, tenant, paused, job::text AS job, workflow_id, deleted_at IS NOT NULL AS deleted
            FROM schedules WHERE id = ANY($1::uuid[])
            FOR SHARE
            """;

    /**
     * A schedule's target as a tick finds it.
     *
     * @param jobJson the job template (normalised submission body); null with a workflow
     * @param workflowId the workflow to start instead; null with a job
     * @param deleted whether the schedule is deleted (its row waits for its tombstone)
     */
    public record Target(UUID scheduleId, long version, String tenant, boolean paused, String jobJson,
                         UUID workflowId, boolean deleted) {
    }

    /** The schedules among {@code ids} the table holds, by id, locked for share on {@code connection}. */
    public Uni<Map<UUID, Target>> find(SqlConnection connection, Collection<UUID> ids) {
        return RowsById.find(connection, FIND, ids, row -> new Target(row.getUUID("id"), row.getLong("version"),
                row.getString("tenant"), row.getBoolean("paused"), row.getString("job"), row.getUUID("workflow_id"),
                row.getBoolean("deleted")));
    }
}
