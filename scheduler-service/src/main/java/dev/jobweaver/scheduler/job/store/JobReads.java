package dev.jobweaver.scheduler.job.store;

import static dev.jobweaver.scheduler.job.store.JobRows.*;
import static dev.jobweaver.scheduler.job.store.JobSql.*;

import dev.jobweaver.scheduler.job.JobExecution;
import dev.jobweaver.scheduler.observability.BacklogRow;
import dev.jobweaver.scheduler.observability.QueueRow;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Reads jobs without locking them: one job by id, and the counts the gauges publish. Each is one statement on the
 * pool, outside any transaction; nothing here blocks a thread.
 */
@ApplicationScoped
public class JobReads {

    @Inject Pool pool;

    /** One job, without a lock. */
    public Uni<Optional<JobExecution>> find(UUID jobId) {
        return find(pool, jobId);
    }

    /** One job, without a lock, on {@code client}. */
    public Uni<Optional<JobExecution>> find(SqlClient client, UUID jobId) {
        return client.preparedQuery(FIND_ONE).execute(Tuple.of(jobId)).map(rows -> {
            var it = rows.iterator();
            return it.hasNext() ? Optional.of(job(it.next())) : Optional.empty();
        });
    }

    /** The due {@code PENDING} jobs grouped by priority and tenant: depth and oldest age of each group. */
    public Uni<List<BacklogRow>> backlog() {
        return pool.query(BACKLOG).execute().map(rows -> {
            List<BacklogRow> backlog = new ArrayList<>(rows.size());
            for (Row row : rows) {
                backlog.add(new BacklogRow(row.getString("priority"),
                        row.getString("tenant"), row.getLong("depth"), row.getDouble("oldest_age")));
            }
            return backlog;
        });
    }

    /** The jobs waiting to run by queue, due or set aside for want of a worker: depth and oldest age of each queue. */
    public Uni<List<QueueRow>> queueBacklog() {
        return queueBacklog(pool);
    }

    /** {@link #queueBacklog()} on {@code client}. */
    public Uni<List<QueueRow>> queueBacklog(SqlClient client) {
        return client.query(QUEUE_BACKLOG).execute().map(rows -> {
            List<QueueRow> queues = new ArrayList<>(rows.size());
            for (Row row : rows) {
                queues.add(new QueueRow(row.getString("queue"), row.getLong("depth"), row.getDouble("oldest_age")));
            }
            return queues;
        });
    }

    /** How many jobs wait for a later start ({@code PENDING}, not due yet); reads each of them. */
    public Uni<Long> countDelayed() {
        return pool.query(COUNT_DELAYED).execute().map(rows -> rows.iterator().next().getLong("delayed"));
    }

    /** How many jobs are {@code PENDING} and due, and {@code RUNNING}: {@code [pending, running]}. */
    public Uni<long[]> countActive() {
        return pool.query(COUNT_ACTIVE).execute().map(rows -> {
            Row row = rows.iterator().next();
            return new long[] {row.getLong("pending"), row.getLong("running")};
        });
    }
}
