package dev.jobweaver.scheduler.testing;

import dev.jobweaver.common.event.WorkerHeartbeatEvent;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.scheduler.worker.WorkerPool;
import io.vertx.mutiny.sqlclient.Pool;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The worker the scheduler's tests dispatch to: it serves the default queue and runs the built-in types, as the
 * standard worker does. Without one the dispatcher parks every job ({@code WorkerPool}); a test of other queues or
 * types announces its own workers.
 */
public final class StandardWorker {

    public static final String ID = "test-standard-worker";
    public static final List<String> QUEUES = List.of("default");
    public static final List<String> TYPES = List.of(JobType.HTTP.name(), JobType.SIMULATION.name());
    /** The longest interval a heartbeat may state: the worker lives half an hour after each. */
    private static final long INTERVAL_MS = WorkerHeartbeatEvent.MAX_INTERVAL_MS;

    private StandardWorker() {
    }

    /** Stores the standard worker, live for a day, and has {@code workers} read it now. */
    public static void lives(Pool pool, WorkerPool workers) {
        pool.preparedQuery("""
                INSERT INTO workers (worker_id, queues, types, capacity, started_at, sent_at, live_until)
                VALUES ($1, $2, $3, 1000, now(), now(), now() + interval '1 day')
                ON CONFLICT (worker_id) DO UPDATE SET live_until = excluded.live_until, sent_at = excluded.sent_at""")
                .execute(io.vertx.mutiny.sqlclient.Tuple.of(ID, QUEUES.toArray(String[]::new),
                        TYPES.toArray(String[]::new)))
                .await().atMost(Duration.ofSeconds(30));
        workers.refresh().await().atMost(Duration.ofSeconds(30));
    }

    /** Its heartbeat now, for a test that reaches the scheduler through Kafka only (a native executable). */
    public static WorkerHeartbeatEvent heartbeat() {
        Instant now = Instant.now();
        return new WorkerHeartbeatEvent(ID, QUEUES, TYPES, 1000, INTERVAL_MS, now, now, false);
    }
}
