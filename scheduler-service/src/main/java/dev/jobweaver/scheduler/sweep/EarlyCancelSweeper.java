package dev.jobweaver.scheduler.sweep;

import dev.jobweaver.scheduler.SchedulerConfig;
import dev.jobweaver.scheduler.job.store.JobInserts;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import org.jboss.logging.Logger;

/**
 * Deletes the cancels kept for jobs that were never ingested once they are older than
 * {@code jobweaver.scheduler.commands.early-cancel-ttl}, so that such placeholders do not pile up.
 *
 * <p>One DELETE over the partial index that holds only placeholders; replicas may run it at the same time, which
 * deletes each row once. Runs on the event loop and never blocks.
 */
@ApplicationScoped
public class EarlyCancelSweeper {

    private static final Logger LOG = Logger.getLogger(EarlyCancelSweeper.class);

    @Inject JobInserts inserts;
    @Inject SchedulerConfig config;

    @Scheduled(every = "${jobweaver.scheduler.commands.early-cancel-sweep-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP, skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> scheduledSweep() {
        return sweep()
                .onFailure().invoke(e -> LOG.warnf("could not expire kept cancels; the next tick tries again: %s",
                        e.toString()))
                .onFailure().recoverWithNull()
                .replaceWithVoid();
    }

    /** Deletes the expired placeholders; how many. */
    public Uni<Integer> sweep() {
        Duration ttl = config.commands().earlyCancelTtl();
        return inserts.expireEarlyCancels(ttl).invoke(deleted -> {
            if (deleted > 0) {
                LOG.infof("deleted %d cancel(s) kept for more than %s for jobs that never arrived", deleted, ttl);
            }
        });
    }
}
