package dev.jobweaver.api.audit;

import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
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

    private final AuditRepository repository;
    private final Duration retention;
    private final int batchSize;

    public AuditCleanup(AuditRepository repository, AuditConfig config) {
        this.repository = repository;
        this.retention = config.retention();
        this.batchSize = config.cleanupBatchSize();
    }

    @Scheduled(every = "${jobweaver.audit.cleanup-interval:1h}", delay = 60, delayUnit = TimeUnit.SECONDS,
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP, identity = "audit-log-cleanup",
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> scheduledCleanup() {
        return deleteExpired()
                .invoke(deleted -> {
                    if (deleted > 0) {
                        LOG.infof("deleted %d audit entries older than %s", deleted, retention);
                    }
                })
                .onFailure().invoke(e -> LOG.warnf("audit log cleanup failed: %s", e.getMessage()))
                .onFailure().recoverWithNull()
                .replaceWithVoid();
    }

    /** Deletes every entry older than the retention now, batch after batch; how many. */
    public Uni<Integer> deleteExpired() {
        Instant cutoff = Instant.now().minus(retention);
        return deleteOlderThan(cutoff);
    }

    private Uni<Integer> deleteOlderThan(Instant cutoff) {
        return repository.deleteOlderThan(cutoff, batchSize).chain(deleted -> deleted >= batchSize
                ? deleteOlderThan(cutoff).map(more -> deleted + more)
                : Uni.createFrom().item(deleted));
    }
}
