package dev.jobweaver.api.job.store;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.Priority;
import io.vertx.mutiny.sqlclient.Row;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;

/** How a job's control and result are written to and read from the columns of {@code jobs}. */
public final class JobControlColumns {

    /** The job-control columns, with the JSON ones as text, in the order {@link #control(Row)} reads them. */
    static final String SELECT = "priority, run_at, timeout_ms, retry_delays_ms::text AS retry_delays_ms, tenant,"
            + " labels::text AS labels, queue";

    private static final TypeReference<List<Long>> DELAYS = new TypeReference<>() {
    };
    private static final TypeReference<Map<String, String>> LABELS = new TypeReference<>() {
    };

    private JobControlColumns() {
    }

    static Priority priority(Row row) {
        return Priority.valueOf(row.getString("priority"));
    }

    static Instant runAt(Row row) {
        OffsetDateTime value = row.getOffsetDateTime("run_at");
        return value == null ? null : value.toInstant();
    }

    static List<Long> retryDelays(Row row) {
        return JsonColumns.read(row.getString("retry_delays_ms"), DELAYS);
    }

    static Map<String, String> labels(Row row) {
        return JsonColumns.read(row.getString("labels"), LABELS);
    }

    /**
     * The control a row's event carries: what the row holds beyond the defaults, so that a job stored without any
     * (every job of the original API) carries none, as its first publish did.
     */
    public static JobControl control(Row row) {
        Priority priority = priority(row);
        String tenant = row.getString("tenant");
        String queue = row.getString("queue");
        JobControl control = new JobControl(priority == Priority.NORMAL ? null : priority, runAt(row),
                row.getLong("timeout_ms"), retryDelays(row), JobControl.DEFAULT_TENANT.equals(tenant) ? null : tenant,
                labels(row), JobControl.DEFAULT_QUEUE.equals(queue) ? null : queue);
        return control.equals(JobControl.DEFAULTS) ? null : control;
    }
}
