package dev.jobweaver.api.retention;

import dev.jobweaver.api.job.JobCommandService;
import dev.jobweaver.api.platform.background.RoundFailures;
import dev.jobweaver.api.workflow.WorkflowRunPublisher;
import dev.jobweaver.common.metrics.Counters;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * Removes what has passed its retention, a batch at a time: finished jobs (from the API, and through a
 * {@code PURGE} on {@code job-commands} from the scheduler), finished workflow runs (a {@code PURGE} on
 * {@code workflow-runs}), application events and quarantined records.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>Kafka first, then the API's delete: a batch's commands are all acknowledged ({@code acks=all}) before the
 *       statement that deletes the batch runs. A crash or a Kafka failure between the two leaves the batch in the API,
 *       found again by the next round and its commands sent again, which the scheduler applies as nothing (the job is
 *       gone). The other order would leave the scheduler holding a job the API forgot, for ever.</li>
 *   <li>Only a job still finished when its batch is deleted goes (the statement checks the status again, and spares a
 *       job whose dead letter was just requeued); the scheduler ignores a {@code PURGE} of a job it holds unfinished.</li>
 *   <li>Short transactions: each batch (at most {@code batch-size} rows) is one statement; finding a batch reads and
 *       locks nothing. A round takes at most {@code max-batches-per-round} batches of each kind.</li>
 *   <li>It yields to the pipeline: after a full batch it pauses before the next, for as long as the batch took times
 *       {@code (1 - duty-cycle) / duty-cycle} ({@link #pauseAfter}), so that a backlog of a million jobs is worked off
 *       in a share of the time and not as one long burst of deletes and commands, and all the more slowly when the
 *       database is busy and batches take longer.</li>
 *   <li>Any API instance may run it; several at once send some commands twice, which is harmless, and delete each row
 *       once.</li>
 * </ul>
 *
 * <h2>Threads</h2>
 * A round runs on a Vert.x event loop (the scheduler's timer, or a test), never concurrently with itself in one
 * instance; nothing blocks.
 */
@ApplicationScoped
public class RetentionPurge {

    private static final Logger LOG = Logger.getLogger(RetentionPurge.class);

    /** What one round removed. */
    public record Purged(int jobs, int runs, int events, int quarantined) {
    }

    /** One batch: how many rows were due (a full batch means more may be), how many went. */
    record Batch(int found, int removed) {
    }

    private final RetentionStore store;
    private final RetentionConfig config;
    private final Vertx vertx;
    private final JobCommandService commands;
    private final WorkflowRunPublisher runs;
    private final Counter jobsPurged;
    private final Counter runsPurged;
    private final Counter eventsPurged;
    private final Counter quarantinedPurged;

    public RetentionPurge(RetentionStore store, RetentionConfig config, JobCommandService commands,
                          WorkflowRunPublisher runs, Vertx vertx, MeterRegistry registry) {
        this.store = store;
        this.config = config;
        this.vertx = vertx;
        if (!(config.dutyCycle() > 0 && config.dutyCycle() <= 1)) {
            throw new IllegalStateException("jobweaver.api.retention.duty-cycle must be above 0 and at most 1, was "
                    + config.dutyCycle());
        }
        this.commands = commands;
        this.runs = runs;
        String description = "Rows removed by the retention purge";
        this.jobsPurged = Counters.of(registry, "jobweaver.retention.purged", description, "kind", "jobs");
        this.runsPurged = Counters.of(registry, "jobweaver.retention.purged", description, "kind", "workflow-runs");
        this.eventsPurged = Counters.of(registry, "jobweaver.retention.purged", description, "kind", "events");
        this.quarantinedPurged = Counters.of(registry, "jobweaver.retention.purged", description, "kind",
                "quarantined-records");
    }

    @Scheduled(every = "${jobweaver.api.retention.purge-interval:15s}", delay = 5, delayUnit = TimeUnit.SECONDS,
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP, identity = "retention-purge",
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> scheduledPurge() {
        return RoundFailures.logged(purgeDue(Instant.now()).invoke(purged -> {
            if (purged.jobs() + purged.runs() + purged.events() + purged.quarantined() > 0) {
                LOG.infof("retention purge: %d job(s), %d workflow run(s), %d event(s), %d quarantined record(s)",
                        purged.jobs(), purged.runs(), purged.events(), purged.quarantined());
            }
        }), LOG, Logger.Level.WARN, "retention purge failed; the next round tries again");
    }

    /** One round as of {@code now}: jobs, then runs, events and quarantined records; what it removed. */
    public Uni<Purged> purgeDue(Instant now) {
        int size = config.batchSize();
        return batches(() -> purgeJobBatch(now))
                .chain(jobs -> batches(() -> purgeRunBatch(now))
                .chain(runCount -> batches(() -> counted(store.purgeEvents(now.minus(config.eventsAfter()), size),
                        eventsPurged))
                .chain(events -> batches(() -> counted(store.purgeQuarantined(now.minus(config.quarantinedAfter()),
                        size), quarantinedPurged))
                .map(quarantined -> new Purged(jobs, runCount, events, quarantined)))));
    }

    private static Uni<Batch> counted(Uni<Integer> delete, Counter counter) {
        return delete.map(deleted -> {
            counter.increment(deleted);
            return new Batch(deleted, deleted);
        });
    }

    /**
     * One batch of due jobs: their {@code PURGE} commands (a record a partition), all acknowledged, then their rows.
     * The number of jobs found (a full batch means more may be due), whatever the delete spared.
     */
    Uni<Batch> purgeJobBatch(Instant now) {
        return store.dueJobs(now, config.completedAfter(), config.failedAfter(), config.batchSize())
                .chain(due -> due.isEmpty() ? Uni.createFrom().item(new Batch(0, 0))
                        : commands.purge(due.stream().map(RetentionStore.DueJob::id).toList())
                                .chain(() -> store.purgeJobs(due, now.minus(config.requeueGrace())))
                                .map(gone -> {
                                    jobsPurged.increment(gone.size());
                                    return new Batch(due.size(), gone.size());
                                }));
    }

    /** One batch of due workflow runs, as {@link #purgeJobBatch}: the scheduler's {@code PURGE}s, then the rows. */
    Uni<Batch> purgeRunBatch(Instant now) {
        return store.dueRuns(now, config.completedAfter(), config.failedAfter(), config.batchSize())
                .chain(due -> due.isEmpty() ? Uni.createFrom().item(new Batch(0, 0))
                        : all(due, runs::purge)
                                .chain(() -> store.purgeRuns(due))
                                .map(gone -> {
                                    runsPurged.increment(gone.size());
                                    return new Batch(due.size(), gone.size());
                                }));
    }

    /** Every publish of {@code items} at once; fails as soon as one fails (the batch is then not deleted). */
    private static <T> Uni<Void> all(List<T> items, Function<T, Uni<Void>> publish) {
        List<Uni<Void>> publishes = new ArrayList<>(items.size());
        items.forEach(item -> publishes.add(publish.apply(item)));
        return Uni.join().all(publishes).andFailFast().replaceWithVoid();
    }

    /**
     * Runs {@code batch} until one finds less than a full batch, at most {@code max-batches-per-round} times; how
     * many rows went.
     */
    private Uni<Integer> batches(Supplier<Uni<Batch>> batch) {
        return batches(batch, config.maxBatchesPerRound());
    }

    private Uni<Integer> batches(Supplier<Uni<Batch>> batch, int left) {
        long started = System.nanoTime();
        return batch.get().chain(taken -> taken.found() >= config.batchSize() && left > 1
                ? pause(pauseAfter(Duration.ofNanos(System.nanoTime() - started), config.dutyCycle()))
                        .chain(() -> batches(batch, left - 1)).map(more -> taken.removed() + more)
                : Uni.createFrom().item(taken.removed()));
    }

    /**
     * How long to wait after a batch that took {@code took}, so that the purge works {@code dutyCycle} of the time
     * (1 or more: no pause).
     */
    static Duration pauseAfter(Duration took, double dutyCycle) {
        if (dutyCycle >= 1) {
            return Duration.ZERO;
        }
        return Duration.ofNanos((long) (took.toNanos() * (1 - dutyCycle) / dutyCycle));
    }

    /** Completes after {@code pause}, on a Vert.x timer (on the caller's context when it has one). */
    private Uni<Void> pause(Duration pause) {
        long millis = pause.toMillis();
        if (millis <= 0) {
            return Uni.createFrom().voidItem();
        }
        return Uni.createFrom().emitter(done -> vertx.setTimer(millis, id -> done.complete(null)));
    }
}
