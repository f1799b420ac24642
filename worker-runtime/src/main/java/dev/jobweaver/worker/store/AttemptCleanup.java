package dev.jobweaver.worker.store;

import dev.jobweaver.worker.WorkerConfig;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * Deletes finished attempts older than {@code jobweaver.worker.attempts.retention}, a batch at a time, every
 * {@code cleanup-interval}. A worker keeps an attempt only to recognise a redelivered run (the outcome is published
 * again, the steps not run again); a run is redelivered only while its {@code run-job} record exists, so the retention
 * must be longer than that topic's (7 days by Kafka's default): 30 days by default, the longest default retention of a
 * job. The API's retention purge does not reach the workers (no command per purged job to every worker), so this is
 * how a purged job's attempts leave the workers' store. A row still {@code RUNNING} is left to the run that holds it.
 *
 * <h2>Threads</h2>
 * A Vert.x timer starts each round on an event loop; a round never overlaps the previous one in this process, and
 * nothing blocks. Several workers sharing the database only share the work.
 */
@ApplicationScoped
public class AttemptCleanup {

    private static final Logger LOG = Logger.getLogger(AttemptCleanup.class);

    private final AttemptRepository attempts;
    private final WorkerConfig.Attempts config;
    private final Vertx vertx;
    private final AtomicBoolean running = new AtomicBoolean();
    private volatile long timer = -1;

    public AttemptCleanup(AttemptRepository attempts, WorkerConfig config, Vertx vertx) {
        this.attempts = attempts;
        this.config = config.attempts();
        this.vertx = vertx;
    }

    void start(@Observes StartupEvent ignored) {
        Duration interval = config.cleanupInterval();
        if (!interval.isZero() && !interval.isNegative()) {
            timer = vertx.setPeriodic(interval.toMillis(), id -> round());
        }
    }

    void stop(@Observes ShutdownEvent ignored) {
        if (timer >= 0) {
            vertx.cancelTimer(timer);
        }
    }

    private void round() {
        if (!running.compareAndSet(false, true)) {
            return;
        }
        deleteExpired(Instant.now()).subscribe().with(deleted -> {
            running.set(false);
            if (deleted > 0) {
                LOG.infof("deleted %d finished attempt(s) older than %s", deleted, config.retention());
            }
        }, failure -> {
            running.set(false);
            LOG.warnf("attempt cleanup failed (%s); the next round tries again", failure.getMessage());
        });
    }

    /** Deletes every finished attempt started more than the retention before {@code now}, batch after batch. */
    public Uni<Integer> deleteExpired(Instant now) {
        return deleteBefore(now.minus(config.retention()), config.cleanupBatchSize());
    }

    private Uni<Integer> deleteBefore(Instant cutoff, int batch) {
        return attempts.deleteFinishedStartedBefore(cutoff, batch).chain(deleted -> deleted >= batch
                ? deleteBefore(cutoff, batch).map(more -> deleted + more)
                : Uni.createFrom().item(deleted));
    }
}
