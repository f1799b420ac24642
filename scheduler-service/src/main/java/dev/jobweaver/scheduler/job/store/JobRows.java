package dev.jobweaver.scheduler.job.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.job.Priority;
import dev.jobweaver.scheduler.job.JobExecution;
import io.vertx.mutiny.sqlclient.Row;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

/** Reads a row of {@code job_executions} ({@link JobSql#COLUMNS}) and turns values into what the statements bind. */
final class JobRows {

    /** Reads and writes the JSON of labels and results; trees and string maps only, so nothing is reflected on. */
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<Map<String, String>> LABELS = new TypeReference<>() { };

    private JobRows() {
    }

    static JobExecution job(Row row) {
        return new JobExecution(
                row.getUUID("job_id"),
                row.getString("job_type"),
                row.getString("trace_id"),
                row.getString("traceparent"),
                row.getString("instruction"),
                JobStatus.valueOf(row.getString("job_status")),
                row.getInteger("retry_count"),
                row.getInteger("max_retries"),
                row.getInteger("attempt"),
                instant(row, "next_run_at"),
                instant(row, "lease_until"),
                row.getString("last_error"),
                instant(row, "created_at"),
                instant(row, "updated_at"),
                instant(row, "dispatched_at"),
                instant(row, "started_at"),
                instant(row, "finished_at"),
                row.getLong("version"),
                control(row),
                tree(row.getString("result")));
    }

    /**
     * A queue as a job's control carries it: null for the default queue, so that the run of a job that names none
     * carries none, as before queues.
     */
    static String storedQueue(String queue) {
        return queue == null || JobControl.DEFAULT_QUEUE.equals(queue) ? null : queue;
    }

    /**
     * The control of a stored job; a row from before job control has the column defaults, NORMAL and 'default' (its
     * tenant and its queue).
     */
    private static JobControl control(Row row) {
        Long[] delays = row.getArrayOfLongs("retry_delays_ms");
        String labels = row.getString("labels");
        Map<String, String> labelMap = null;
        if (labels != null) {
            try {
                labelMap = JSON.readValue(labels, LABELS);
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("unreadable labels of job " + row.getUUID("job_id"), e);
            }
        }
        return new JobControl(Priority.valueOf(row.getString("priority")), instant(row, "run_at"),
                row.getLong("timeout_ms"), delays == null ? null : List.of(delays), row.getString("tenant"), labelMap,
                storedQueue(row.getString("queue")));
    }

    private static JsonNode tree(String json) {
        if (json == null) {
            return null;
        }
        try {
            return JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("unreadable stored JSON", e);
        }
    }

    static String json(Object value) {
        if (value == null) {
            return null;
        }
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot write " + value.getClass().getSimpleName() + " as JSON", e);
        }
    }

    /** A PostgreSQL array literal of {@code values} ({@code {1,2}}), bound as text and cast, or null. */
    static String arrayLiteral(List<Long> values) {
        if (values == null) {
            return null;
        }
        StringBuilder literal = new StringBuilder("{");
        for (int i = 0; i < values.size(); i++) {
            literal.append(i == 0 ? "" : ",").append(values.get(i));
        }
        return literal.append('}').toString();
    }

    static Instant instant(Row row, String column) {
        OffsetDateTime value = row.getOffsetDateTime(column);
        return value == null ? null : value.toInstant();
    }

    static OffsetDateTime odt(Instant instant) {
        return instant == null ? null : instant.atOffset(ZoneOffset.UTC);
    }
}
