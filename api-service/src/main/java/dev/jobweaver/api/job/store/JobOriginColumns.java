package dev.jobweaver.api.job.store;

import dev.jobweaver.common.job.JobOrigin;
import io.vertx.mutiny.sqlclient.Row;
import java.time.OffsetDateTime;
import java.util.UUID;

/** How a job's origin (a schedule's tick, or a workflow run's node) is read from the columns of {@code jobs}. */
public final class JobOriginColumns {

    /** The origin's columns, as {@link #origin(Row)} reads them; {@code prefix} is a table alias and its dot, or empty. */
    public static String select(String prefix) {
        return prefix + "schedule_id, " + prefix + "scheduled_for, " + prefix + "workflow_id, " + prefix
                + "workflow_run_id, " + prefix + "node_id, " + prefix + "workflow_max_concurrency";
    }

    private JobOriginColumns() {
    }

    /** What made a row's job; null for a client's submission. */
    public static JobOrigin origin(Row row) {
        UUID scheduleId = row.getUUID("schedule_id");
        if (scheduleId != null) {
            OffsetDateTime scheduledFor = row.getOffsetDateTime("scheduled_for");
            return new JobOrigin(scheduleId, scheduledFor == null ? null : scheduledFor.toInstant());
        }
        UUID runId = row.getUUID("workflow_run_id");
        if (runId != null) {
            return JobOrigin.node(row.getUUID("workflow_id"), runId, row.getString("node_id"),
                    row.getInteger("workflow_max_concurrency"));
        }
        return null;
    }
}
