package dev.jobweaver.api.audit;

import dev.jobweaver.api.platform.background.RoundFailures;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Deletes audit entries older than {@code jobweaver.audit.retention}, a batch at a time. Any instance may run it;
 * several at once only share the work.
 */
@ApplicationScoped
public class AuditCleanup {

    private static final Logger LOG = Logger.getLogger(AuditCleanup.class);

    @Inject AuditRepository repository;
    @Inject AuditConfig config;

    @Scheduled(every = "${jobweaver.audit.cleanup-interval:1h}", delay = 60, delayUnit = TimeUnit.SECONDS,
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP, identity = "audit-log-cleanup",
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> scheduledCleanup() {
        return RoundFailures.logged(deleteExpired().invoke(deleted -> {
            if (deleted > 0) {
                LOG.infof("deleted %d audit entries older than %s", deleted, config.retention());
            }
        }), LOG, Logger.Level.WARN, "audit log cleanup failed");
    }

    /** Deletes every entry older than the retention now, batch after batch; how many. */
    public Uni<Integer> deleteExpired() {
        return deleteOlderThan(Instant.now().minus(config.retention()), config.cleanupBatchSize());
    }

    private Uni<Integer> deleteOlderThan(Instant cutoff, int batchSize) {
        return repository.deleteOlderThan(cutoff, batchSize).chain(deleted -> deleted >= batchSize
                ? deleteOlderThan(cutoff, batchSize).map(more -> deleted + more)
                : Uni.createFrom().item(deleted));
    }
}
