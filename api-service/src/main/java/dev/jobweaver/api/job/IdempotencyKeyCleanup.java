package dev.jobweaver.api.job;

import dev.jobweaver.api.job.store.IdempotencyStore;
import dev.jobweaver.api.platform.background.RoundFailures;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Deletes expired {@code Idempotency-Key}s, a batch at a time. An expired key still present is already treated as
 * absent by submissions, so this only keeps the table to a day's keys; any instance may run it, and several at once
 * only share the work.
 */
@ApplicationScoped
public class IdempotencyKeyCleanup {

    private static final Logger LOG = Logger.getLogger(IdempotencyKeyCleanup.class);

    private final IdempotencyStore store;
    private final Duration ttl;
    private final int batchSize;

    public IdempotencyKeyCleanup(IdempotencyStore store, JobApiConfig config) {
        this.store = store;
        this.ttl = config.idempotency().ttl();
        this.batchSize = config.idempotency().cleanupBatchSize();
    }

    @Scheduled(every = "${jobweaver.api.idempotency.cleanup-interval:10m}", delay = 30, delayUnit = TimeUnit.SECONDS,
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP, identity = "idempotency-key-cleanup",
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> scheduledCleanup() {
        return RoundFailures.logged(deleteExpired(), LOG, Logger.Level.WARN, "idempotency key cleanup failed");
    }

    /** Deletes every key expired now, batch after batch; returns how many. */
    public Uni<Integer> deleteExpired() {
        Instant expiredAt = Instant.now().minus(ttl);
        return store.deleteExpired(expiredAt, batchSize).chain(deleted -> deleted >= batchSize
                ? deleteExpired().map(more -> deleted + more)
                : Uni.createFrom().item(deleted));
    }
}
