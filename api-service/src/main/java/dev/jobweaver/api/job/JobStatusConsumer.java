package dev.jobweaver.api.job;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.job.store.JobStatusStore;
import dev.jobweaver.api.job.StatusRecord.Unusable;
import dev.jobweaver.common.event.EventRules;
import dev.jobweaver.common.event.JobStatusChangedEvent;
import dev.jobweaver.common.messaging.Channels;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.BatchIntake;
import dev.jobweaver.common.quarantine.Bisection;
import dev.jobweaver.common.quarantine.Consumed;
import dev.jobweaver.common.quarantine.EventReader;
import dev.jobweaver.common.quarantine.Failures;
import dev.jobweaver.common.quarantine.Quarantine;
import dev.jobweaver.common.reactive.VertxContexts;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * Follows {@code job-status} into the {@code jobs} read model, so {@code GET /api/jobs/{id}} shows the scheduler's view.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>An event is applied only if its version is higher than the job's {@code status_version}: an older or repeated
 *       event never overwrites a newer one; of several events of one job in a poll, the highest version wins.</li>
 *   <li>A terminal status is written with the poll that brings it. A non-terminal one may be held back for
 *       {@code jobweaver.api.status.hold} (1 s by default) and is then written with the job's next status instead
 *       ({@link StatusHold}): a no-op job's row is updated once, not twice.</li>
 *   <li>A poll is acknowledged only after everything it carried is written (or replaced by a newer status of the same
 *       job) or quarantined, so its offsets are committed only then; held events lost in a crash are consumed
 *       again.</li>
 *   <li>Values are read from raw bytes ({@link EventReader}, {@link EventRules}): a record that does not parse, breaks
 *       a rule, or is not keyed by its jobId is set aside in {@code jobweaver-quarantine} with its original bytes
 *       ({@link Quarantine}) before its poll is acknowledged, and never written; a tombstone (no value) is
 *       ignored.</li>
 *   <li>A write the database refuses for good (SQL state class 22 or 23, {@link Failures}) is split ({@link Bisection})
 *       until the refused event stands alone; that event's record (the one whose event was written: of a job's
 *       events merged by the hold, the newest) is quarantined as {@code REJECTED_BY_DATABASE}, and the other events
 *       of the write are stored, in the same order.</li>
 *   <li>A transient failure (database or Kafka unreachable) is retried with back-off until it succeeds, never
 *       skipped or quarantined; meanwhile no further poll is taken (the channel waits for the write), so the consumer
 *       resumes where it was when the database is back. Only a failure that is neither (a bug) nacks the polls
 *       involved and fails the channel.</li>
 * </ul>
 *
 * <h2>Threads</h2>
 * {@link #consume} and the hold's timer run on the consumer's Vert.x event loop, the only thread that touches the
 * hold. Writes, with the quarantine publishes of their poll, run one at a time, in the order they were taken (so two
 * multi-row updates never lock rows against each other); the rounds of a split write run one after the other.
 * Acknowledgements follow on the thread where a write or a publish completed.
 */
@ApplicationScoped
@Startup // its quarantine counters exist, at zero, from the start, not from the first bad record
public class JobStatusConsumer {

    private static final Logger LOG = Logger.getLogger(JobStatusConsumer.class);

    private final JobStatusStore store;
    private final JobMetrics metrics;
    private final ObjectMapper mapper;
    private final StatusHold<Message<?>, StatusRecord> hold;
    /**
     * Quarantines and writes a step ({@link BatchIntake#round}); the polls and the hold are handled here. A transient
     * failure is retried until it succeeds, so the read model catches up by itself once the database is back: on one
     * machine, where nothing restarts a process whose liveness is DOWN, a channel that gave up after five retries
     * showed every later job PENDING for good (measured 2026-11-25, a 10 s PostgreSQL outage).
     */
    private final BatchIntake<StatusRecord> writes;
    /** The last write taken; the next one starts after it (event loop only). */
    private CompletableFuture<Void> lastWrite = CompletableFuture.completedFuture(null);
    /** The pending timer that writes held events when they are due, or -1 (event loop only). */
    private long holdTimer = -1;

    public JobStatusConsumer(JobStatusStore store, JobMetrics metrics, JobApiConfig config, Quarantine quarantine,
                             ObjectMapper mapper) {
        this.store = store;
        this.metrics = metrics;
        this.mapper = mapper;
        this.hold = new StatusHold<>(config.status().hold().toNanos(), config.status().holdMaxRecords(),
                StatusRecord::event);
        this.writes = new BatchIntake<>(Channels.JOB_STATUS_IN, quarantine,
                (record, origin) -> StatusRecord.consumed(mapper, record, origin), this::round);
        quarantine.register(Topics.JOB_STATUS);
    }

    @Incoming(Channels.JOB_STATUS_IN)
    public Uni<Void> consume(KafkaRecordBatch<String, byte[]> batch) {
        List<Unusable> unusable = new ArrayList<>();
        Map<UUID, StatusRecord> latest = latestPerJob(batch.getRecords(), unusable);
        Context context = Vertx.currentContext();
        StatusHold.Step<Message<?>, StatusRecord> step = hold.offer(batch, batch.getRecords().size(), latest.values(),
                System.nanoTime());
        if (context == null) {
            // no event loop to come back to for a timer: hold nothing
            step = merged(step, hold.all());
        } else {
            armTimer(context);
        }
        metrics.statusHeld(hold.size());
        return VertxContexts.backToCaller(write(step, unusable, batch));
    }

    /**
     * Writes held events once they are due; the timer fires on the consumer's event loop. A pending timer is kept: it
     * was set for the oldest event held then, and every event held since is due later, so at worst it fires early,
     * finds the oldest replaced and sets itself again.
     */
    private void armTimer(Context context) {
        if (holdTimer >= 0) {
            return;
        }
        long untilDue = hold.untilNextDue(System.nanoTime());
        if (untilDue < 0) {
            return;
        }
        holdTimer = context.owner().setTimer(Math.max(1, TimeUnit.NANOSECONDS.toMillis(untilDue) + 1), id -> {
            holdTimer = -1;
            StatusHold.Step<Message<?>, StatusRecord> due = hold.due(System.nanoTime());
            metrics.statusHeld(hold.size());
            armTimer(context);
            if (!due.write().isEmpty() || !due.ackable().isEmpty()) {
                write(due, List.of(), null).subscribe().with(ignored -> { }, failure -> { }); // logged, nacked in write
            }
        });
    }

    /**
     * Quarantines {@code unusable} and writes a step after the previous write, then acknowledges the polls it releases.
     * On failure the polls it wrote for, the ones it released and {@code current} are nacked.
     */
    private Uni<Void> write(StatusHold.Step<Message<?>, StatusRecord> step, List<Unusable> unusable,
                            Message<?> current) {
        metrics.statusStale(step.stale());
        CompletableFuture<Void> previous = lastWrite;
        CompletableFuture<Void> done = previous
                .handle((ignored, failure) -> null) // a failed write has failed the channel already
                .thenCompose(ignored -> apply(step, unusable, current).subscribeAsCompletionStage());
        lastWrite = done;
        return Uni.createFrom().completionStage(done);
    }

    private Uni<Void> apply(StatusHold.Step<Message<?>, StatusRecord> step, List<Unusable> unusable,
                            Message<?> current) {
        List<StatusRecord> records = step.write();
        List<Consumed<StatusRecord>> round = new ArrayList<>(unusable.size() + records.size());
        unusable.forEach(bad -> round.add(new Consumed.Refused<>(bad.origin(), bad.reason(), bad.detail())));
        records.forEach(record -> round.add(new Consumed.Usable<>(record, record.origin())));
        return writes.round(round)
                .chain(() -> Uni.join().all(step.ackable().stream().map(JobStatusConsumer::ack).toList())
                        .andFailFast().replaceWithVoid())
                .onFailure().call(failure -> {
                    LOG.errorf(failure, "could not apply %d job-status event(s) or quarantine %d record(s); the channel"
                            + " stops here and the records are consumed again from the last committed offset",
                            records.size(), unusable.size());
                    Set<Message<?>> failed = Collections.newSetFromMap(new IdentityHashMap<>());
                    failed.addAll(step.sources());
                    failed.addAll(step.ackable());
                    if (current != null) {
                        failed.add(current);
                    }
                    return Uni.join().all(failed.stream().map(m -> nack(m, failure)).toList())
                            .andCollectFailures().onFailure().recoverWithNull().replaceWithVoid();
                });
    }

    /** One all-or-nothing write (one statement) of {@code records}; the unit {@link #writes} splits. */
    private Uni<Void> round(List<StatusRecord> records) {
        List<JobStatusChangedEvent> events = records.stream().map(StatusRecord::event).toList();
        return store.applyAll(events, Instant.now())
                .invoke(applied -> {
                    metrics.statusApplied(applied);
                    metrics.statusStale(events.size() - applied);
                })
                .replaceWithVoid();
    }

    private static Uni<Void> ack(Message<?> batch) {
        return Uni.createFrom().completionStage(batch::ack);
    }

    private static Uni<Void> nack(Message<?> batch, Throwable failure) {
        return Uni.createFrom().completionStage(() -> batch.nack(failure));
    }

    /** Both steps as one (the stale count of the first). */
    private static StatusHold.Step<Message<?>, StatusRecord> merged(StatusHold.Step<Message<?>, StatusRecord> first,
                                                                    StatusHold.Step<Message<?>, StatusRecord> second) {
        List<StatusRecord> write = new ArrayList<>(first.write());
        write.addAll(second.write());
        List<Message<?>> ackable = new ArrayList<>(first.ackable());
        ackable.addAll(second.ackable());
        List<Message<?>> sources = new ArrayList<>(first.sources());
        sources.addAll(second.sources());
        return new StatusHold.Step<>(write, ackable, sources, first.stale() + second.stale());
    }

    /**
     * The usable events of the batch, the highest version per job, each with its record; records that are no usable
     * event go to {@code unusable}, and events superseded within the batch are counted as stale (tombstones and
     * unusable records are neither).
     */
    private Map<UUID, StatusRecord> latestPerJob(List<KafkaRecord<String, byte[]>> records, List<Unusable> unusable) {
        Map<UUID, StatusRecord> latest = new HashMap<>();
        int superseded = 0;
        for (KafkaRecord<String, byte[]> record : records) {
            StatusRecord read = StatusRecord.read(mapper, record, unusable);
            if (read == null) {
                continue;
            }
            JobStatusChangedEvent event = read.event();
            StatusRecord previous = latest.get(event.jobId());
            if (previous == null || previous.event().version() < event.version()) {
                latest.put(event.jobId(), read);
            }
            if (previous != null) {
                superseded++;
            }
        }
        metrics.statusStale(superseded);
        return latest;
    }
}
