package dev.jobweaver.api.job.messaging;

import dev.jobweaver.api.job.config.JobApiConfig;
import dev.jobweaver.api.job.persistence.OutboxStore;
import dev.jobweaver.api.job.service.JobMetrics;
import dev.jobweaver.common.event.JobCreatedEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Publishes the outbox rows whose request died between its commit and Kafka's answer (a crash, a kill).
 *
 * <p>It only looks at rows older than the send timeout plus a margin: a live request always ends (acknowledged, or
 * compensated with its row deleted) within the send timeout, so a row that old has no request left to finish it.
 * Rows are claimed with {@code FOR UPDATE SKIP LOCKED} inside one transaction that lasts until Kafka answered: several
 * API replicas never publish the same row at the same time, and a late compensation of a live request (a plain
 * {@code DELETE}) waits for that transaction, then finds the row gone (published: its client gets 202) or still there
 * (not published: its client gets 503). A row whose publish fails stays for the next sweep. Publishing twice (a
 * sweeper that timed out on an append that did happen) is harmless: the scheduler's ingestion is idempotent on jobId.
 */
@ApplicationScoped
public class OutboxSweeper {

    private static final Logger LOG = Logger.getLogger(OutboxSweeper.class);

    private final OutboxStore outbox;
    private final JobCreatedPublisher publisher;
    private final JobMetrics metrics;
    private final Duration age;
    private final int batchSize;

    public OutboxSweeper(OutboxStore outbox, JobCreatedPublisher publisher, JobMetrics metrics, JobApiConfig config) {
        this.outbox = outbox;
        this.publisher = publisher;
        this.metrics = metrics;
        this.age = publisher.timings().callerWait().plus(config.outbox().sweepMargin());
        this.batchSize = config.outbox().sweepBatchSize();
    }

    @Scheduled(every = "${jobweaver.api.outbox.sweep-interval:5s}", delayed = "${jobweaver.api.outbox.sweep-interval:5s}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP, identity = "outbox-sweeper",
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> scheduledSweep() {
        return sweep()
                .onFailure().invoke(e -> LOG.warnf("outbox sweep failed: %s", e.getMessage()))
                .onFailure().recoverWithNull()
                .replaceWithVoid();
    }

    /** One sweep; returns how many rows it published. */
    public Uni<Integer> sweep() {
        Instant cutoff = Instant.now().minus(age);
        return outbox.sweep(cutoff, batchSize, this::publishAll)
                .call(published -> outbox.depth()
                        .invoke(metrics::outboxDepth)
                        .onFailure().recoverWithNull());
    }

    /** Publishes the claimed rows; answers the jobs Kafka acknowledged. */
    private Uni<List<UUID>> publishAll(List<OutboxStore.Claimed> claimed) {
        List<JobCreatedPublisher.Outgoing> sends = new ArrayList<>(claimed.size());
        for (OutboxStore.Claimed row : claimed) {
            JobCreatedEvent event = new JobCreatedEvent(row.jobId(), row.type(), row.instruction(), row.maxRetries(),
                    row.traceId(), row.createdAt());
            sends.add(new JobCreatedPublisher.Outgoing(event, row.eventId(), publisher.contextOf(row.traceparent())));
        }
        return publisher.publishAll(sends).map(results -> {
            List<UUID> published = new ArrayList<>();
            for (int i = 0; i < sends.size(); i++) {
                UUID jobId = sends.get(i).event().jobId();
                if (results.get(i) == null) {
                    published.add(jobId);
                } else {
                    LOG.warnf("outbox: job %s still not published: %s", jobId, results.get(i).getMessage());
                }
            }
            if (!published.isEmpty()) {
                LOG.infof("outbox: published %d job(s) left behind by earlier requests: %s", published.size(),
                        published);
                metrics.sweptPublished(published.size());
            }
            return published;
        });
    }
}
