package dev.jobweaver.worker.offsets;

import dev.jobweaver.common.error.WorkerErrorCode;
import dev.jobweaver.worker.WorkerConfig;
import dev.jobweaver.worker.offsets.PartitionOffsets.Admission;
import dev.jobweaver.worker.offsets.PartitionOffsets.CommitPoint;
import dev.jobweaver.worker.offsets.PartitionOffsets.StuckOffset;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.IncomingKafkaRecord;
import io.smallrye.reactive.messaging.kafka.KafkaConsumer;
import io.smallrye.reactive.messaging.kafka.commit.KafkaCommitHandler;
import io.vertx.mutiny.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.jboss.logging.Logger;

/**
 * The worker's commit strategy ({@code commit-strategy=out-of-order}): records complete in any order, the committed
 * offset is the highest one below which everything completed, and the completed offsets above it travel in the
 * commit metadata so that the next owner of the partition skips them.
 *
 * <h2>Guarantee</h2>
 * At-least-once (see {@link PartitionOffsets}). A record is acknowledged only after its outcome event was
 * acknowledged by Kafka, so a committed offset never covers a run whose outcome could be lost. A slow record holds the
 * committed offset back, never the records behind it: they run, publish and complete at once.
 *
 * <h2>Threads</h2>
 * One instance per Kafka consumer (the channel's {@code concurrency} attribute creates several). The bookkeeping of
 * its partitions ({@link PartitionOffsets}, not thread-safe) is only touched under {@code lock}:
 * <ul>
 *   <li>{@link #received}: the consumer's Vert.x event-loop context, as records leave the connector's queue.</li>
 *   <li>{@link #handle} (a record acknowledged): the virtual thread that ran the job or quarantined the record.</li>
 *   <li>{@link #partitionsAssigned} and {@link #partitionsRevoked}: the Kafka polling thread, inside {@code poll()}.
 *       Assignment reads the committed offsets and metadata there; revocation commits there, before the partition
 *       can move.</li>
 *   <li>The periodic commit: a Vert.x timer hands the work to the polling thread ({@link KafkaConsumer#runOnPollingThread}),
 *       which snapshots, commits synchronously and records the result. Commits and rebalances therefore never
 *       interleave, and the timer fires whether or not records arrive.</li>
 *   <li>{@link #terminate}: the thread closing the connector at shutdown; it waits for runs in progress (up to the
 *       grace period) and makes the last commit on the polling thread.</li>
 * </ul>
 *
 * <h2>Defaults</h2>
 * Commit every second ({@code jobweaver.worker.offsets.commit-interval}), a commit times out after 10 s, an offset is
 * stuck after 2 minutes in flight ({@code stuck-threshold}), metadata at most 4096 characters
 * ({@code metadata-max-chars}, Kafka's {@code offset.metadata.max.bytes}).
 */
public final class OutOfOrderCommitHandler implements KafkaCommitHandler {

    /** The {@code commit-strategy} value that selects this handler. */
    public static final String STRATEGY = "out-of-order";

    private static final Logger LOG = Logger.getLogger(OutOfOrderCommitHandler.class);

    private final String channel;
    private final String clientId;
    private final KafkaConsumer<?, ?> consumer;
    private final Vertx vertx;
    private final WorkerConfig.Offsets config;
    private final OffsetMetrics metrics;
    private final BooleanSupplier draining;
    private final BooleanSupplier slotsFree;
    private final Drain drain;
    private final Object lock = new Object();
    private final Map<TopicPartition, PartitionOffsets> partitions = new HashMap<>();
    private final Map<TopicPartition, List<StuckOffset>> stuck = new HashMap<>();
    private final Set<String> reportedStuck = new HashSet<>();
    private final Map<TopicPartition, DeliveryWatch> deliveryWatches = new HashMap<>();
    private final Set<TopicPartition> deliveryStalled = new HashSet<>();
    private final AtomicBoolean flushPending = new AtomicBoolean();
    private volatile boolean terminated;
    private final long timerId;

    /** Waits for the runs in progress at shutdown. */
    @FunctionalInterface
    public interface Drain {
        /** Blocks until no run is in progress or the grace period ends; true if none is left. */
        boolean awaitIdle();
    }

    /** A snapshot of one partition for health and tests. */
    public record PartitionReport(String topic, int partition, long committedOffset, long commitPosition, int inFlight,
            int completedAbove, int knownCompleted, long uncommittedLag, List<StuckOffset> stuck,
            boolean deliveryStalled) {
    }

    OutOfOrderCommitHandler(String channel, String clientId, KafkaConsumer<?, ?> consumer, Vertx vertx,
            WorkerConfig.Offsets config, OffsetMetrics metrics, BooleanSupplier draining, BooleanSupplier slotsFree,
            Drain drain) {
        this.channel = channel;
        this.clientId = clientId;
        this.consumer = consumer;
        this.vertx = vertx;
        this.config = config;
        this.metrics = metrics;
        this.draining = draining;
        this.slotsFree = slotsFree;
        this.drain = drain;
        this.timerId = vertx.setPeriodic(config.commitInterval().toMillis(), id -> flush());
    }

    @Override
    public <K, V> Uni<IncomingKafkaRecord<K, V>> received(IncomingKafkaRecord<K, V> record) {
        TopicPartition tp = new TopicPartition(record.getTopic(), record.getPartition());
        if (draining.getAsBoolean()) {
            // Shutting down: not tracked, not run, so never committed past; the next owner gets it.
            return Uni.createFrom().nullItem();
        }
        Admission admission;
        synchronized (lock) {
            PartitionOffsets state = partitions.get(tp);
            admission = state == null ? null : state.received(record.getOffset(), System.nanoTime());
        }
        if (admission == null) {
            LOG.debugf("%s: record %s@%d arrived after its partition was revoked; left to the new owner", clientId, tp,
                    record.getOffset());
            return Uni.createFrom().nullItem();
        }
        if (admission == Admission.SKIP) {
            LOG.infof("%s: skipping %s@%d, which completed already (commit metadata or an earlier delivery)", clientId,
                    tp, record.getOffset());
            metrics.skipped(tp.topic(), "completed-already");
            return Uni.createFrom().nullItem();
        }
        return Uni.createFrom().item(record);
    }

    @Override
    public <K, V> Uni<Void> handle(IncomingKafkaRecord<K, V> record) {
        TopicPartition tp = new TopicPartition(record.getTopic(), record.getPartition());
        synchronized (lock) {
            PartitionOffsets state = partitions.get(tp);
            if (state != null) {
                state.complete(record.getOffset());
            } else {
                LOG.debugf("%s: %s@%d completed after its partition was revoked; the new owner will skip or re-run it",
                        clientId, tp, record.getOffset());
            }
        }
        return Uni.createFrom().voidItem();
    }

    @Override
    public void partitionsAssigned(Collection<TopicPartition> assigned) {
        if (assigned.isEmpty()) {
            return;
        }
        Map<TopicPartition, OffsetAndMetadata> committed;
        try {
            committed = consumer.unwrap().committed(new HashSet<>(assigned), config.commitTimeout());
        } catch (RuntimeException e) {
            // Never fail the poll over this: without the metadata nothing is skipped, and records completed by the
            // previous owner run again, which event_id idempotency turns into re-published outcomes.
            LOG.warnf("%s: could not read the committed offsets of %s (%s); nothing will be skipped", clientId,
                    assigned, e.toString());
            committed = Map.of();
        }
        synchronized (lock) {
            for (TopicPartition tp : assigned) {
                OffsetAndMetadata om = committed.get(tp);
                PartitionOffsets state = new PartitionOffsets(om == null ? PartitionOffsets.NONE : om.offset(),
                        om == null ? null : om.metadata());
                partitions.put(tp, state);
                LOG.infof("%s: assigned %s at committed offset %s, %d completed offsets above it to skip", clientId, tp,
                        om == null ? "none" : om.offset(), state.knownCompletedCount());
            }
        }
    }

    @Override
    public void partitionsRevoked(Collection<TopicPartition> revoked) {
        Map<TopicPartition, CommitPoint> points = new HashMap<>();
        synchronized (lock) {
            for (TopicPartition tp : revoked) {
                PartitionOffsets state = partitions.remove(tp);
                stuck.remove(tp);
                deliveryWatches.remove(tp);
                deliveryStalled.remove(tp);
                if (state != null) {
                    CommitPoint point = state.commitPoint(config.metadataMaxChars());
                    if (point != null) {
                        points.put(tp, point);
                    }
                    LOG.infof("%s: revoked %s (%s)", clientId, tp, state);
                }
                metrics.forget(tp);
            }
        }
        commit(consumer.unwrap(), points, "revocation");
    }

    @Override
    public void terminate(boolean graceful) {
        if (graceful && !drain.awaitIdle()) {
            LOG.warnf("%s: runs still in progress after the grace period; their records will be delivered again", clientId);
        }
        vertx.cancelTimer(timerId);
        try {
            consumer.runOnPollingThread(c -> {
                commitOnPollingThread(c, "shutdown");
            }).await().atMost(config.commitTimeout().multipliedBy(2));
        } catch (RuntimeException e) {
            LOG.warnf("%s %s: final commit failed: %s", WorkerErrorCode.OFFSET_COMMIT_FAILED.code(), clientId, e.toString());
        }
        terminated = true;
    }

    /** The partitions this consumer holds now (assigned and not revoked). Any thread. */
    public Set<TopicPartition> assigned() {
        synchronized (lock) {
            return Set.copyOf(partitions.keySet());
        }
    }

    /** The partitions this consumer owns, as the bookkeeping sees them. */
    public List<PartitionReport> report() {
        synchronized (lock) {
            List<PartitionReport> reports = new ArrayList<>();
            partitions.forEach((tp, s) -> reports.add(new PartitionReport(tp.topic(), tp.partition(),
                    s.lastCommittedOffset(), s.commitPosition(), s.inFlightCount(), s.completedAboveCount(),
                    s.knownCompletedCount(), s.uncommittedLag(), List.copyOf(stuck.getOrDefault(tp, List.of())),
                    deliveryStalled.contains(tp))));
            return reports;
        }
    }

    /** The partitions this consumer has paused (back-pressure), read on the polling thread. */
    public Set<TopicPartition> pausedPartitions() {
        return consumer.runOnPollingThread(c -> {
            return Set.copyOf(c.paused());
        }).await().atMost(Duration.ofSeconds(10));
    }

    /** The Kafka consumer this handler commits for (tests pause a partition with it). */
    KafkaConsumer<?, ?> consumer() {
        return consumer;
    }

    /** The channel this handler commits for. */
    public String channel() {
        return channel;
    }

    /** Timer tick (any thread): commit and check for stuck offsets on the polling thread, one tick at a time. */
    private void flush() {
        if (terminated || !flushPending.compareAndSet(false, true)) {
            return;
        }
        consumer.runOnPollingThread(c -> {
            commitOnPollingThread(c, "timer");
        }).subscribe().with(ignored -> flushPending.set(false), failure -> {
            flushPending.set(false);
            LOG.debugf("%s: periodic commit not run: %s", clientId, failure.toString());
        });
    }

    private void commitOnPollingThread(Consumer<?, ?> kafka, String reason) {
        Map<TopicPartition, CommitPoint> points = new HashMap<>();
        long now = System.nanoTime();
        Set<TopicPartition> paused = kafka.paused();
        synchronized (lock) {
            for (Map.Entry<TopicPartition, PartitionOffsets> entry : partitions.entrySet()) {
                CommitPoint point = entry.getValue().commitPoint(config.metadataMaxChars());
                if (point != null) {
                    points.put(entry.getKey(), point);
                }
            }
            checkStuck(now);
            checkDelivery(paused, now);
        }
        commit(kafka, points, reason);
    }

    /** Must hold {@code lock}. */
    private void checkStuck(long now) {
        long threshold = config.stuckThreshold().toNanos();
        for (Map.Entry<TopicPartition, PartitionOffsets> entry : partitions.entrySet()) {
            TopicPartition tp = entry.getKey();
            PartitionOffsets state = entry.getValue();
            List<StuckOffset> found = state.stuck(now, threshold);
            stuck.put(tp, found);
            for (StuckOffset s : found) {
                if (reportedStuck.add(tp + "@" + s.offset())) {
                    metrics.stuckDetected(tp.topic());
                    LOG.warnf("%s: offset %s@%d in flight for %d ms (threshold %s); it holds the committed offset at %d",
                            clientId, tp, s.offset(), s.ageMillis(), config.stuckThreshold(), state.commitPosition());
                }
            }
            metrics.update(tp, state.uncommittedLag(), found.size(), state.lastCommittedOffset());
        }
        if (reportedStuck.size() > 10_000) {
            reportedStuck.clear();
        }
    }

    /**
     * Must hold {@code lock}. A partition paused while the worker has free slots and nothing new received from it for
     * {@code stuck-threshold}: the connector stopped handing its records over (seen once; worker README). Reported
     * like a stuck offset (log once, gauge, health detail); nothing is lost, the records are uncommitted.
     */
    private void checkDelivery(Set<TopicPartition> paused, long now) {
        boolean free = slotsFree.getAsBoolean() && !draining.getAsBoolean();
        long threshold = config.stuckThreshold().toNanos();
        for (Map.Entry<TopicPartition, PartitionOffsets> entry : partitions.entrySet()) {
            TopicPartition tp = entry.getKey();
            DeliveryWatch watch = deliveryWatches.computeIfAbsent(tp, ignored -> new DeliveryWatch());
            long stalled = watch.observe(paused.contains(tp), entry.getValue().highestReceived(), free, now);
            if (stalled >= threshold) {
                deliveryStalled.add(tp);
                if (watch.firstReport()) {
                    LOG.warnf("%s: %s paused for %d ms with records waiting while the worker has free run slots and"
                            + " nothing new was received: the connector stopped delivering them (they stay uncommitted;"
                            + " a restart of the worker delivers them)", clientId, tp, stalled / 1_000_000);
                }
            } else {
                deliveryStalled.remove(tp);
            }
            metrics.deliveryStalled(tp, deliveryStalled.contains(tp));
        }
    }

    /** Runs on the polling thread. */
    private void commit(Consumer<?, ?> kafka, Map<TopicPartition, CommitPoint> points, String reason) {
        if (points.isEmpty()) {
            return;
        }
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        points.forEach((tp, p) -> offsets.put(tp, new OffsetAndMetadata(p.offset(), p.metadata())));
        try {
            kafka.commitSync(offsets, config.commitTimeout());
            synchronized (lock) {
                points.forEach((tp, p) -> {
                    PartitionOffsets state = partitions.get(tp);
                    if (state != null) {
                        state.committed(p);
                    }
                });
            }
            points.forEach((tp, p) -> {
                metrics.committed(tp.topic(), true);
                if (p.dropped() > 0) {
                    metrics.metadataDropped(tp.topic(), p.dropped());
                    LOG.warnf("%s: %d completed offsets of %s above %d did not fit in the commit metadata; a new owner"
                            + " would deliver them again (their runs are recognised by event_id)", clientId, p.dropped(),
                            tp, p.offset());
                }
            });
            LOG.debugf("%s: committed (%s) %s", clientId, reason, offsets);
        } catch (RuntimeException e) {
            points.keySet().forEach(tp -> metrics.committed(tp.topic(), false));
            LOG.warnf("%s %s: commit (%s) of %s failed, tried again at the next interval: %s",
                    WorkerErrorCode.OFFSET_COMMIT_FAILED.code(), clientId, reason, offsets.keySet(), e.toString());
        }
    }
}
