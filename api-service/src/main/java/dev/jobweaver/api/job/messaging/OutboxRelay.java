package dev.jobweaver.api.job.messaging;

import dev.jobweaver.api.job.service.JobMetrics;
import dev.jobweaver.api.job.service.OutboxCleanup;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
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
 * Committed jobs keep being answered 202. The producer buffers their events and retries on its own for up to
 * {@code publish.delivery-timeout} (30 s by default), sending the moment the broker is back; events it gave up on are
 * the sweeper's. A failure is logged once when it starts and then at most every {@link #WARN_EVERY_NANOS} with how
 * many events failed meanwhile, not once per job.
 *
 * <h2>Threads</h2>
 * {@link #relayCommitted} is called on the event loop that finished a group's insert and returns at once: the hand-off
 * to the producer happens on a virtual thread ({@link JobCreatedPublisher#publishAll}); Kafka's answers arrive on the
 * caller's Vert.x context.
 */
@ApplicationScoped
public class OutboxRelay {

    private static final Logger LOG = Logger.getLogger(OutboxRelay.class);
    private static final long WARN_EVERY_NANOS = 10_000_000_000L;

    private final JobCreatedPublisher publisher;
    private final OutboxCleanup cleanup;
    private final JobMetrics metrics;
    /** When the last failure was logged (System.nanoTime), 0 while deliveries succeed. */
    private final AtomicLong failingSince = new AtomicLong();
    private final AtomicLong lastWarned = new AtomicLong();
    private final AtomicLong failedSinceWarned = new AtomicLong();

    public OutboxRelay(JobCreatedPublisher publisher, OutboxCleanup cleanup, JobMetrics metrics) {
        this.publisher = publisher;
        this.cleanup = cleanup;
        this.metrics = metrics;
    }

    /**
     * Publishes the events of jobs just committed with their outbox rows, without the caller waiting: the rows of the
     * acknowledged ones are deleted within the delete delay, the others stay for the sweeper. Never fails.
     */
    public void relayCommitted(List<JobCreatedPublisher.Outgoing> events) {
        publish(events).subscribe().with(cleanup::deleteLater,
                e -> LOG.errorf(e, "relaying %d committed job(s) failed; the sweeper will publish them", events.size()));
    }

    /**
     * Publishes the events in order and answers the jobIds Kafka acknowledged, in that order. Never fails: an event
     * Kafka did not take is logged (rate-limited) and left out.
     */
    public Uni<List<UUID>> publish(List<JobCreatedPublisher.Outgoing> events) {
        return publisher.publishAll(events).map(results -> {
            List<UUID> acknowledged = new ArrayList<>(events.size());
            PublishFailedException firstFailure = null;
            int failed = 0;
            for (int i = 0; i < events.size(); i++) {
                if (results.get(i) == null) {
                    acknowledged.add(events.get(i).event().jobId());
                } else {
                    failed++;
                    if (firstFailure == null) {
                        firstFailure = results.get(i);
                    }
                }
            }
            if (failed > 0) {
                metrics.relayFailed(failed);
                failing(failed, firstFailure);
            } else if (!acknowledged.isEmpty()) {
                recovered();
            }
            return acknowledged;
        });
    }

    private void failing(int failed, PublishFailedException reason) {
        long now = System.nanoTime();
        failingSince.compareAndSet(0, now);
        long total = failedSinceWarned.addAndGet(failed);
        long last = lastWarned.get();
        if ((last == 0 || now - last >= WARN_EVERY_NANOS) && lastWarned.compareAndSet(last, now)) {
            failedSinceWarned.addAndGet(-total);
            LOG.warnf("Kafka did not take %d job-created event(s) (%s); their jobs are accepted and stay in the"
                    + " outbox, which the sweeper publishes once Kafka is back", total, reason.getMessage());
        }
    }

    private void recovered() {
        long since = failingSince.getAndSet(0);
        if (since != 0) {
            lastWarned.set(0);
            long unlogged = failedSinceWarned.getAndSet(0);
            LOG.infof("Kafka takes job-created events again after %d ms of failures%s", (System.nanoTime() - since)
                    / 1_000_000, unlogged > 0 ? " (" + unlogged + " more failed meanwhile)" : "");
        }
    }
}
