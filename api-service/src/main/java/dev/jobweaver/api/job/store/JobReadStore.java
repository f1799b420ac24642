package dev.jobweaver.api.job.store;

import java.util.HashMap;
import java.util.Collection;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.api.platform.db.Slice;
import dev.jobweaver.common.job.JobOrigin;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.job.Priority;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Reads the {@code jobs} read model for {@code GET /api/jobs}, with the reactive PostgreSQL client. */
@ApplicationScoped
public class JobReadStore {

    /** The columns {@link #job(Row)} reads; the payload as text, parsed with the jsonb columns' own mapper. */
    static final String COLUMNS = "id, type, instruction::text AS instruction, trace_id, status, retry_count,"
            + " max_retries, attempts, next_run_at, last_error, created_at, updated_at, finished_at, started_at,"
            + " status_version, "
            + JobControlColumns.SELECT + ", result::text AS result, "
            + JobOriginColumns.select("");

    private final Pool pool;

    public JobReadStore(Pool pool) {
        this.pool = pool;
    }

    /** The job, or null when there is none with this id. */
    public Uni<StoredJob> find(UUID id) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM jobs WHERE id = $1").execute(Tuple.of(id))
                .map(rows -> {
                    Iterator<Row> it = rows.iterator();
                    return it.hasNext() ? job(it.next()) : null;
                });
    }

    /** The status of each of {@code ids} that the read model holds. */
    public Uni<Map<UUID, JobStatus>> statuses(Collection<UUID> ids) {
        if (ids.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return pool.preparedQuery("SELECT id, status FROM jobs WHERE id = ANY($1)")
                .execute(Tuple.of(ids.toArray(UUID[]::new))).map(rows -> {
                    Map<UUID, JobStatus> statuses = new HashMap<>();
                    rows.forEach(row -> statuses.put(row.getUUID("id"), JobStatus.valueOf(row.getString("status"))));
                    return statuses;
                });
    }

    /**
     * What {@code GET /api/jobs} filters on; each null (or empty) filter matches every job.
     *
     * @param labels pairs that must all be among the job's labels
     * @param scheduleId only the jobs this schedule made
     * @param workflowRunId only the jobs of this workflow run's nodes
     * @param queue only the jobs of this queue
     */
    public record Filter(JobType type, JobStatus status, Priority priority, String tenant,
                         List<Map.Entry<String, String>> labels, UUID scheduleId, UUID workflowRunId, String queue) {

        /** Without the queue filter. */
        public Filter(JobType type, JobStatus status, Priority priority, String tenant,
                      List<Map.Entry<String, String>> labels, UUID scheduleId, UUID workflowRunId) {
            this(type, status, priority, tenant, labels, scheduleId, workflowRunId, null);
        }

        /** Without the workflow run filter. */
        public Filter(JobType type, JobStatus status, Priority priority, String tenant,
                      List<Map.Entry<String, String>> labels, UUID scheduleId) {
            this(type, status, priority, tenant, labels, scheduleId, null);
        }

        /** Only by type and status. */
        public Filter(JobType type, JobStatus status) {
            this(type, status, null, null, List.of(), null);
        }

        /** Without the schedule filter. */
        public Filter(JobType type, JobStatus status, Priority priority, String tenant,
                      List<Map.Entry<String, String>> labels) {
            this(type, status, priority, tenant, labels, null);
        }
    }

    /** Jobs matching {@code filter}, newest first. */
    public Uni<Slice<StoredJob>> page(Filter filter, int page, int size) {
        // Only the filters given are in the statement, so each combination keeps its own plan and index.
        List<String> where = new ArrayList<>();
        List<Object> params = new ArrayList<>();
        if (filter.type() != null) {
            params.add(filter.type().name());
            where.add("type = $" + params.size());
        }
        if (filter.status() != null) {
            params.add(filter.status().name());
            where.add("status = $" + params.size());
        }
        if (filter.priority() != null) {
            params.add(filter.priority().name());
            where.add("priority = $" + params.size());
        }
        if (filter.tenant() != null) {
            params.add(filter.tenant());
            where.add("tenant = $" + params.size());
        }
        if (filter.queue() != null) {
            params.add(filter.queue());
            where.add("queue = $" + params.size());
        }
        if (filter.scheduleId() != null) {
            // jobs_schedule_created_at_idx (V7) serves this with the page's order
            params.add(filter.scheduleId());
            where.add("schedule_id = $" + params.size());
        }
        if (filter.workflowRunId() != null) {
            // jobs_workflow_run_created_at_idx (V10) serves this with the page's order
            params.add(filter.workflowRunId());
            where.add("workflow_run_id = $" + params.size());
        }
        for (Map.Entry<String, String> label : filter.labels() == null ? List.<Map.Entry<String, String>>of()
                : filter.labels()) {
            // One containment per pair: the same key asked with two values matches nothing, as it should. Bound as
            // text, then cast: the client would bind a String parameter of type jsonb as a JSON string.
            params.add(JsonColumns.write(Map.of(label.getKey(), label.getValue())));
            where.add("labels @> $" + params.size() + "::text::jsonb");
        }
        String condition = where.isEmpty() ? "" : " WHERE " + String.join(" AND ", where);
        List<Object> pageParams = new ArrayList<>(params);
        pageParams.add(size);
        pageParams.add((long) page * size);
        String select = "SELECT " + COLUMNS + " FROM jobs" + condition + " ORDER BY created_at DESC, id DESC LIMIT $"
                + (params.size() + 1) + " OFFSET $" + (params.size() + 2);
        return pool.preparedQuery(select).execute(Tuple.from(pageParams)).chain(rows -> {
            List<StoredJob> jobs = new ArrayList<>();
            rows.forEach(row -> jobs.add(job(row)));
            return pool.preparedQuery("SELECT count(*) FROM jobs" + condition).execute(Tuple.from(params))
                    .map(count -> new Slice<>(jobs, count.iterator().next().getLong(0)));
        });
    }

    /** A {@link StoredJob} from a row with {@link #COLUMNS}. */
    static StoredJob job(Row row) {
        return new StoredJob(row.getUUID("id"), JobType.of(row.getString("type")),
                payload(row.getString("instruction")), row.getString("trace_id"),
                JobStatus.valueOf(row.getString("status")), row.getInteger("retry_count"),
                row.getInteger("max_retries"), row.getInteger("attempts"), instant(row, "next_run_at"),
                row.getString("last_error"), instant(row, "created_at"), instant(row, "updated_at"),
                instant(row, "finished_at"), row.getLong("status_version"), JobControlColumns.priority(row),
                JobControlColumns.runAt(row), row.getLong("timeout_ms"), JobControlColumns.retryDelays(row),
                row.getString("tenant"), JobControlColumns.labels(row),
                JsonColumns.tree(row.getString("result")), origin(row), instant(row, "started_at"),
                row.getString("queue"));
    }

    /** What made a row's job; null for a client's submission. */
    private static JobOrigin origin(Row row) {
        return JobOriginColumns.origin(row);
    }

    /** A stored instruction (jsonb as text) as the payload tree. */
    public static JsonNode payload(String json) {
        JsonNode payload = JsonColumns.tree(json);
        if (payload == null || !payload.isObject()) {
            throw new IllegalStateException("a stored instruction is not a JSON object");
        }
        return payload;
    }

    /** The timestamp column {@code column} of {@code row} as an instant; null when it is null. */
    static Instant instant(Row row, String column) {
        OffsetDateTime value = row.getOffsetDateTime(column);
        return value == null ? null : value.toInstant();
    }
}
