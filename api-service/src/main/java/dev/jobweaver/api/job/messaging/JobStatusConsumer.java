package dev.jobweaver.api.job.messaging;

import dev.jobweaver.api.job.config.JobApiConfig;
import dev.jobweaver.api.job.persistence.JobStatusStore;
import dev.jobweaver.api.job.service.JobMetrics;
import dev.jobweaver.common.event.JobStatusChangedEvent;
import dev.jobweaver.common.messaging.Channels;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.reactive.VertxContexts;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.DeserializationFailureHandler;
import io.smallrye.reactive.messaging.kafka.IncomingKafkaRecord;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
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
import org.apache.kafka.common.header.Header;
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
 *       job), so its offsets are committed only then; held events lost in a crash are consumed again.</li>
 *   <li>A record that cannot be read (bad JSON, missing jobId, status or version) is logged with topic, partition and
 *       offset, counted in {@code jobweaver_malformed_records_total{topic}} and skipped, never retried; a tombstone is
 *       ignored.</li>
 *   <li>A database failure is retried a few times, then the polls involved are nacked, which fails the channel
 *       (liveness goes DOWN and the pod restarts from the last committed offset) rather than losing the updates.</li>
 * </ul>
 *
 * <h2>Threads</h2>
 * {@link #consume} and the hold's timer run on the consumer's Vert.x event loop, the only thread that touches the
 * hold. Writes run one at a time, in the order they were taken (so two multi-row updates never lock rows against each
 * other); acknowledgements follow on the thread where a write completed.
 */
@ApplicationScoped
public class JobStatusConsumer {

    private static final Logger LOG = Logger.getLogger(JobStatusConsumer.class);

    private final JobStatusStore store;
    private final JobMetrics metrics;
    private final StatusHold<Message<?>> hold;
    /** The last write taken; the next one starts after it (event loop only). */
    private CompletableFuture<Void> lastWrite = CompletableFuture.completedFuture(null);
    /** The pending timer that writes held events when they are due, or -1 (event loop only). */
    private long holdTimer = -1;

    public JobStatusConsumer(JobStatusStore store, JobMetrics metrics, JobApiConfig config) {
        this.store = store;
        this.metrics = metrics;
        this.hold = new StatusHold<>(config.status().hold().toNanos());
    }

    @Incoming(Channels.JOB_STATUS_IN)
    public Uni<Void> consume(KafkaRecordBatch<String, JobStatusChangedEvent> batch) {
        Map<UUID, JobStatusChangedEvent> latest = latestPerJob(batch.getRecords());
        Context context = Vertx.currentContext();
        StatusHold.Step<Message<?>> step = hold.offer(batch, latest.values(), System.nanoTime());
        if (context == null) {
            // no event loop to come back to for a timer: hold nothing
            step = merged(step, hold.all());
        } else {
            armTimer(context);
        }
        metrics.statusHeld(hold.size());
        return VertxContexts.backToCaller(write(step, batch));
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
            StatusHold.Step<Message<?>> due = hold.due(System.nanoTime());
            metrics.statusHeld(hold.size());
            armTimer(context);
            if (!due.write().isEmpty() || !due.ackable().isEmpty()) {
                write(due, null).subscribe().with(ignored -> { }, failure -> { }); // logged and nacked in write
            }
        });
    }

    /**
     * Writes a step after the previous write, then acknowledges the polls it releases. On failure the polls it wrote
     * for, the ones it released and {@code current} are nacked.
     */
    private Uni<Void> write(StatusHold.Step<Message<?>> step, Message<?> current) {
        metrics.statusStale(step.stale());
        CompletableFuture<Void> previous = lastWrite;
        CompletableFuture<Void> done = previous
                .handle((ignored, failure) -> null) // a failed write has failed the channel already
                .thenCompose(ignored -> apply(step, current).subscribeAsCompletionStage());
        lastWrite = done;
        return Uni.createFrom().completionStage(done);
    }

    private Uni<Void> apply(StatusHold.Step<Message<?>> step, Message<?> current) {
        List<JobStatusChangedEvent> events = step.write();
        Uni<Void> written = events.isEmpty() ? Uni.createFrom().voidItem()
                : Uni.createFrom().deferred(() -> store.applyAll(events, Instant.now()))
                        .onFailure().retry().withBackOff(Duration.ofMillis(200), Duration.ofSeconds(5)).atMost(5)
                        .invoke(applied -> {
                            metrics.statusApplied(applied);
                            metrics.statusStale(events.size() - applied);
                        })
                        .replaceWithVoid();
        return written
                .chain(() -> Uni.join().all(step.ackable().stream().map(JobStatusConsumer::ack).toList())
                        .andFailFast().replaceWithVoid())
                .onFailure().call(failure -> {
                    LOG.errorf(failure, "could not apply %d job-status event(s); the channel stops here and the events"
                            + " are consumed again from the last committed offset", events.size());
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

    private static Uni<Void> ack(Message<?> batch) {
        return Uni.createFrom().completionStage(batch::ack);
    }

    private static Uni<Void> nack(Message<?> batch, Throwable failure) {
        return Uni.createFrom().completionStage(() -> batch.nack(failure));
    }

    /** Both steps as one (the stale count of the first). */
    private static StatusHold.Step<Message<?>> merged(StatusHold.Step<Message<?>> first,
                                                      StatusHold.Step<Message<?>> second) {
        List<JobStatusChangedEvent> write = new ArrayList<>(first.write());
        write.addAll(second.write());
        List<Message<?>> ackable = new ArrayList<>(first.ackable());
        ackable.addAll(second.ackable());
        List<Message<?>> sources = new ArrayList<>(first.sources());
        sources.addAll(second.sources());
        return new StatusHold.Step<>(write, ackable, sources, first.stale() + second.stale());
    }

    /**
     * The readable events of the batch, the highest version per job; malformed records are reported here, and events
     * superseded within the batch are counted as stale (tombstones and malformed records are neither).
     */
    private Map<UUID, JobStatusChangedEvent> latestPerJob(List<KafkaRecord<String, JobStatusChangedEvent>> records) {
        Map<UUID, JobStatusChangedEvent> latest = new HashMap<>();
        int superseded = 0;
        for (KafkaRecord<String, JobStatusChangedEvent> record : records) {
            JobStatusChangedEvent event = record.getPayload();
            String reason = failureReason(record);
            if (event == null && reason == null) {
                continue; // a tombstone on the compacted topic: nothing to apply
            }
            if (!readable(event)) {
                skipMalformed(record, event, reason);
                continue;
            }
            JobStatusChangedEvent previous = latest.get(event.jobId());
            if (previous == null || previous.version() < event.version()) {
                latest.put(event.jobId(), event);
            }
            if (previous != null) {
                superseded++;
            }
        }
        metrics.statusStale(superseded);
        return latest;
    }

    /** Why SmallRye could not deserialize the record, if that is what happened. */
    private static String failureReason(KafkaRecord<?, ?> record) {
        Header header = record.getHeaders().lastHeader(DeserializationFailureHandler.DESERIALIZATION_FAILURE_REASON);
        return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    private static boolean readable(JobStatusChangedEvent event) {
        return event != null && event.jobId() != null && event.status() != null && event.version() > 0;
    }

    private void skipMalformed(KafkaRecord<String, JobStatusChangedEvent> record, JobStatusChangedEvent event,
                               String reason) {
        String topic = record.getTopic() != null ? record.getTopic() : Topics.JOB_STATUS;
        String why = event != null ? "jobId, status or a positive version is missing"
                : reason != null ? reason : "not a JobStatusChangedEvent";
        LOG.warnf("skipping malformed record on %s partition %d offset %d: %s", topic, record.getPartition(),
                record instanceof IncomingKafkaRecord<?, ?> incoming ? incoming.getOffset() : -1, why);
        metrics.malformed(topic);
    }
}
