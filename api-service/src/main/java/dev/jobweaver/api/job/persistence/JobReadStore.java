package dev.jobweaver.api.job.persistence;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.jobweaver.common.job.JobPayload;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.job.JobType;
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
import java.util.UUID;

/** Reads the {@code jobs} read model for {@code GET /api/jobs}, with the reactive PostgreSQL client. */
@ApplicationScoped
public class JobReadStore {

    /** The columns {@link #job(Row)} reads; the payload as text, parsed with the jsonb columns' own mapper. */
    static final String COLUMNS = "id, type, instruction::text AS instruction, trace_id, status, retry_count,"
            + " max_retries, attempts, next_run_at, last_error, created_at, updated_at, finished_at, status_version";

    private final Pool pool;

    public JobReadStore(Pool pool) {
        this.pool = pool;
    }

    /** One page of jobs, newest first, with the total count of the filter. */
    public record JobSlice(List<StoredJob> jobs, long total) {
    }

    /** The job, or null when there is none with this id. */
    public Uni<StoredJob> find(UUID id) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM jobs WHERE id = $1").execute(Tuple.of(id))
                .map(rows -> {
                    Iterator<Row> it = rows.iterator();
                    return it.hasNext() ? job(it.next()) : null;
                });
    }

    /** Jobs matching the optional filters, newest first. */
    public Uni<JobSlice> page(JobType type, JobStatus status, int page, int size) {
        // Only the filters given are in the statement, so each combination keeps its own plan and index.
        List<String> where = new ArrayList<>();
        List<Object> params = new ArrayList<>();
        if (type != null) {
            params.add(type.name());
            where.add("type = $" + params.size());
        }
        if (status != null) {
            params.add(status.name());
            where.add("status = $" + params.size());
        }
        String filter = where.isEmpty() ? "" : " WHERE " + String.join(" AND ", where);
        List<Object> pageParams = new ArrayList<>(params);
        pageParams.add(size);
        pageParams.add((long) page * size);
        String select = "SELECT " + COLUMNS + " FROM jobs" + filter + " ORDER BY created_at DESC, id DESC LIMIT $"
                + (params.size() + 1) + " OFFSET $" + (params.size() + 2);
        return pool.preparedQuery(select).execute(Tuple.from(pageParams)).chain(rows -> {
            List<StoredJob> jobs = new ArrayList<>();
            rows.forEach(row -> jobs.add(job(row)));
            return pool.preparedQuery("SELECT count(*) FROM jobs" + filter).execute(Tuple.from(params))
                    .map(count -> new JobSlice(jobs, count.iterator().next().getLong(0)));
        });
    }

    /** A {@link StoredJob} from a row with {@link #COLUMNS}. */
    static StoredJob job(Row row) {
        return new StoredJob(row.getUUID("id"), JobType.valueOf(row.getString("type")),
                payload(row.getString("instruction")), row.getString("trace_id"),
                JobStatus.valueOf(row.getString("status")), row.getInteger("retry_count"),
                row.getInteger("max_retries"), row.getInteger("attempts"), instant(row, "next_run_at"),
                row.getString("last_error"), instant(row, "created_at"), instant(row, "updated_at"),
                instant(row, "finished_at"), row.getLong("status_version"));
    }

    static JobPayload payload(String json) {
        try {
            return JsonColumns.mapper().readValue(json, JobPayload.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored instruction is not a JobPayload: " + e.getOriginalMessage(), e);
        }
    }

    private static Instant instant(Row row, String column) {
        OffsetDateTime value = row.getOffsetDateTime(column);
        return value == null ? null : value.toInstant();
    }
}
