package dev.jobweaver.api.job.outbox;

import dev.jobweaver.api.job.JobCreatedPublisher;
import dev.jobweaver.api.job.PublishTimings;
import dev.jobweaver.api.job.PublishFailedException;
import dev.jobweaver.api.job.JobMetrics;
import dev.jobweaver.api.job.JobApiConfig;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * The one path by which outbox rows reach {@code job-created}: freshly committed jobs, handed over in memory right after
 * their commit, and the rows the sweeper reads back from the table.
 *
 * <h2>Guarantee</h2>
 * A row is deleted only after Kafka acknowledged its event (acks=all, idempotent producer). An event Kafka did not
 * acknowledge keeps its row, which the sweeper publishes once no relay can still be delivering it. So a committed
 * job reaches Kafka at least once; a second copy (a crash between the acknowledgement and the delete) is harmless,
 * because the scheduler ingests idempotently on jobId. {@code job-created} is keyed by jobId and each job has one
 * event, so acceptance order per key holds whichever path publishes; within a path, events go out in acceptance order.
 *
 * <h2>During a broker outage</h2>
 * Committed jobs keep being answered 202. While the broker is unreachable the producer has no metadata for the topic,
 * so a send fails within {@code max.block.ms}; the relay keeps the failed events of fresh commits in memory, in
 * acceptance order, and tries the oldest again every {@link #RETRY_EVERY_MILLIS} until Kafka takes them, then drains
 * the rest at once. So jobs flow again within about a second of the broker's return, not after the sweeper's age rule.
 * What it keeps is bounded ({@link #RETRY_BYTES}, the API's heap is small); an event beyond the bound, or older than
 * the sweeper's age ({@link #sweepAge}), is dropped from memory and left to the sweeper. A retry claims its rows in
 * the database for as long as its send lasts, as a sweep does, so the two never publish one row twice: an outage
 * longer than the sweeper's age brings one copy of each job when the broker returns, not one from each. A failure is
 * logged at most every {@link #WARN_EVERY_NANOS} with how many events failed meanwhile, and the recovery once after
 * each such line, not once per job.
 *
 * <h2>Threads</h2>
 * {@link #relayCommitted} is called on the event loop that finished a group's insert and returns at once: the hand-off
 * to the producer happens on a virtual thread ({@link JobCreatedPublisher#publishAll}); Kafka's answers and the retry
 * timer run on Vert.x contexts; a retry's claim answers on the database connection's context. The retry queue is
 * guarded by this object's lock, held only to add or take events.
 */
@ApplicationScoped
public class OutboxRelay {

    private static final Logger LOG = Logger.getLogger(OutboxRelay.class);
    private static final long WARN_EVERY_NANOS = 10_000_000_000L;
    /** How often the oldest kept events are tried again while Kafka refuses them. */
    static final long RETRY_EVERY_MILLIS = 1000;
    /** Most events one retry publishes. */
    static final int RETRY_BATCH = 500;
    /** Most bytes of events kept for retrying (counted as the outbox bound counts them): a fifth of the API's heap. */
    static final long RETRY_BYTES = 8L * 1024 * 1024;

    /** A published batch: the jobIds Kafka acknowledged, and the events it did not take, both in order. */
    record Published(List<UUID> acknowledged, List<JobCreatedPublisher.Outgoing> failed) {
    }

    private final JobCreatedPublisher publisher;
    private final OutboxCleanup cleanup;
    private final OutboxStore store;
    private final JobMetrics metrics;
    private final Vertx vertx;
    private final Duration sweepAge;
    private final AtomicLong lastWarned = new AtomicLong(System.nanoTime() - WARN_EVERY_NANOS);
    private final AtomicLong failedSinceWarned = new AtomicLong();
    private final AtomicBoolean failureAnnounced = new AtomicBoolean();
    /** Failed events of fresh commits, oldest first; guarded by {@code this}. */
    private final ArrayDeque<JobCreatedPublisher.Outgoing> retry = new ArrayDeque<>();
    /** Bytes of {@link #retry}; guarded by {@code this}. */
    private long retryBytes;
    /** Whether a timer or a retry in flight will take {@link #retry}; guarded by {@code this}. */
    private boolean retryPending;

    OutboxRelay(JobCreatedPublisher publisher, OutboxCleanup cleanup, OutboxStore store, JobMetrics metrics,
                Vertx vertx, JobApiConfig config) {
        this.publisher = publisher;
        this.cleanup = cleanup;
        this.store = store;
        this.metrics = metrics;
        this.vertx = vertx;
        this.sweepAge = sweepAge(publisher.timings(), config);
    }

    /**
     * How old a row must be before any instance's sweeper takes it: the relay's bound (every callback has arrived) plus
     * the sweep margin. The relay drops older events from its retry queue, so that the two do not hold one row.
     */
    static Duration sweepAge(PublishTimings timings, JobApiConfig config) {
        return timings.callerWait().plus(config.outbox().sweepMargin());
    }

    /**
     * Publishes the events of jobs just committed with their outbox rows, without the caller waiting: the rows of the
     * acknowledged ones are deleted within the delete delay, the others are retried (above). Never fails.
     */
    public void relayCommitted(List<JobCreatedPublisher.Outgoing> events) {
        publish(events).subscribe().with(published -> {
            cleanup.deleteLater(published.acknowledged());
            keepForRetry(published.failed());
        }, e -> LOG.errorf(e, "relaying %d committed job(s) failed; the sweeper will publish them", events.size()));
    }

    /**
     * Publishes the events in order and answers which Kafka acknowledged. Never fails: an event Kafka did not take is
     * counted, logged (rate-limited) and answered as failed.
     */
    Uni<Published> publish(List<JobCreatedPublisher.Outgoing> events) {
        return publisher.publishAll(events).map(results -> {
            List<UUID> acknowledged = new ArrayList<>(events.size());
            List<JobCreatedPublisher.Outgoing> failed = new ArrayList<>();
            PublishFailedException firstFailure = null;
            for (int i = 0; i < events.size(); i++) {
                if (results.get(i) == null) {
                    acknowledged.add(events.get(i).event().jobId());
                } else {
                    failed.add(events.get(i));
                    if (firstFailure == null) {
                        firstFailure = results.get(i);
                    }
                }
            }
            if (!failed.isEmpty()) {
                metrics.relayFailed(failed.size());
                failing(failed.size(), firstFailure);
            } else if (!acknowledged.isEmpty()) {
                recovered();
            }
            return new Published(acknowledged, failed);
        });
    }

    /** Events kept for retrying now (a gauge, not a synchronisation point). */
    synchronized int retrying() {
        return retry.size();
    }

    private void keepForRetry(List<JobCreatedPublisher.Outgoing> failed) {
        if (failed.isEmpty()) {
            return;
        }
        int dropped = 0;
        synchronized (this) {
            for (JobCreatedPublisher.Outgoing event : failed) {
                long bytes = event.bytes();
                if (retryBytes + bytes > RETRY_BYTES) {
                    dropped++;
                    continue;
                }
                retry.addLast(event);
                retryBytes += bytes;
            }
            scheduleRetry(RETRY_EVERY_MILLIS);
        }
        if (dropped > 0) {
            LOG.debugf("%d failed job-created event(s) beyond the relay's retry bound: the sweeper will publish them",
                    dropped);
        }
    }

    /** Arms the retry timer unless one is pending; the caller holds the lock. */
    private void scheduleRetry(long delayMillis) {
        if (!retryPending && !retry.isEmpty()) {
            retryPending = true;
            vertx.setTimer(Math.max(1, delayMillis), id -> retryOldest());
        }
    }

    /**
     * Publishes the oldest kept events again, within a claim of their rows ({@link OutboxStore#retry}): a sweep may
     * take a row while this retry's send still waits for the broker (a send outlives the age check below by up to
     * the caller's wait), and the claim makes the two exclusive, so the broker's return does not bring two copies.
     * Rows no longer there or held by a sweep are the sweep's; the acknowledged rows are deleted in the claim. On
     * success drains on at once, on failure puts the claimed, refused events back and waits.
     */
    private void retryOldest() {
        Instant sweptFrom = Instant.now().minus(sweepAge);
        List<JobCreatedPublisher.Outgoing> batch = new ArrayList<>(RETRY_BATCH);
        synchronized (this) {
            while (!retry.isEmpty() && batch.size() < RETRY_BATCH) {
                JobCreatedPublisher.Outgoing event = retry.pollFirst();
                retryBytes -= event.bytes();
                // the sweeper may take a row this old: leave it to the sweeper rather than publish it twice
                if (event.event().createdAt().isAfter(sweptFrom)) {
                    batch.add(event);
                }
            }
            if (batch.isEmpty()) {
                retryPending = false;
                return;
            }
        }
        List<UUID> jobIds = batch.stream().map(event -> event.event().jobId()).toList();
        store.retry(jobIds, claimed -> publish(batch.stream().filter(event -> claimed.contains(event.event().jobId()))
                .toList()).map(Published::acknowledged)).subscribe().with(retried -> {
            Set<UUID> acknowledged = new HashSet<>(retried.acknowledged());
            synchronized (this) {
                for (int i = batch.size() - 1; i >= 0; i--) {
                    JobCreatedPublisher.Outgoing event = batch.get(i);
                    UUID jobId = event.event().jobId();
                    if (retried.claimed().contains(jobId) && !acknowledged.contains(jobId)) {
                        retry.addFirst(event);
                        retryBytes += event.bytes();
                    }
                }
                retryPending = false;
                scheduleRetry(acknowledged.size() == retried.claimed().size() ? 1 : RETRY_EVERY_MILLIS);
            }
        }, e -> {
            LOG.errorf(e, "retrying %d job-created event(s) failed; the sweeper will publish them", batch.size());
            synchronized (this) {
                retryPending = false;
                scheduleRetry(RETRY_EVERY_MILLIS);
            }
        });
    }

    private void failing(int failed, PublishFailedException reason) {
        long now = System.nanoTime();
        long total = failedSinceWarned.addAndGet(failed);
        long last = lastWarned.get();
        if (now - last >= WARN_EVERY_NANOS && lastWarned.compareAndSet(last, now)) {
            failedSinceWarned.addAndGet(-total);
            failureAnnounced.set(true);
            LOG.warnf("Kafka did not take %d job-created event(s) (%s); their jobs are accepted and stay in the"
                    + " outbox until Kafka takes them", total, reason.getMessage());
        }
    }

    private void recovered() {
        if (failureAnnounced.getAndSet(false)) {
            LOG.infof("Kafka takes job-created events again (%d more failed since the last warning)",
                    failedSinceWarned.get());
        }
    }
}
