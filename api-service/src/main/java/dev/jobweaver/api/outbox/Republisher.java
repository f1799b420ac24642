package dev.jobweaver.api.outbox;

import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.Scheduler;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

/**
 * The one loop that publishes again what the publish after a commit did not bring to Kafka: every
 * {@link UnpublishedEvents} bean (the job outbox's sweeper, and the republishers of schedules, tenant limits and
 * workflow runs) is scheduled here under its own identity and interval.
 *
 * <h2>The loop</h2>
 * A run calls {@link UnpublishedEvents#publishOldest} round after round while a round finds a full batch and Kafka
 * takes some of it, so a long outage's backlog drains at Kafka's pace, and stops at the first round that finds less
 * than a batch or publishes none of it, so a broker that refuses everything costs one round per interval.
 *
 * <h2>Threads</h2>
 * Each source runs on a Vert.x event loop (the scheduler's asynchronous tasks), the first time one second after start,
 * never concurrently with itself ({@code SKIP}) and never before the application runs. A failed round is logged and
 * left to the next run; the events stay unpublished in the database, so nothing is lost.
 */
@ApplicationScoped
class Republisher {

    private static final Logger LOG = Logger.getLogger(Republisher.class);

    @Inject Scheduler scheduler;
    @Inject @Any Instance<UnpublishedEvents> sources;

    void start(@Observes StartupEvent event) {
        for (UnpublishedEvents source : sources) {
            UnpublishedEvents.Rounds rounds = source.rounds();
            scheduler.newJob(rounds.identity())
                    .setInterval(rounds.every().toString())
                    .setDelayed("1s")
                    .setConcurrentExecution(Scheduled.ConcurrentExecution.SKIP)
                    .setSkipPredicate(Scheduled.ApplicationNotRunning.class)
                    .setAsyncTask(execution -> publishAll(source)
                            .onFailure().invoke(e -> LOG.warnf("%s failed: %s", rounds.identity(), e.getMessage()))
                            .onFailure().recoverWithNull()
                            .replaceWithVoid())
                    .schedule();
        }
    }

    /** Rounds until one finds less than a full batch or publishes none of it; how many events they published. */
    static Uni<Integer> publishAll(UnpublishedEvents source) {
        int batchSize = source.rounds().batchSize();
        return source.publishOldest().chain(round -> round.found() >= batchSize && round.published() > 0
                ? publishAll(source).map(more -> round.published() + more)
                : Uni.createFrom().item(round.published()));
    }
}
