package dev.jobweaver.api.job.messaging;

import dev.jobweaver.api.job.config.JobApiConfig;
import dev.jobweaver.api.job.persistence.JobEntity;
import dev.jobweaver.api.job.persistence.JobRepository;
import dev.jobweaver.api.job.persistence.OutboxEntry;
import dev.jobweaver.api.job.persistence.OutboxRepository;
import dev.jobweaver.api.job.service.JobMetrics;
import dev.jobweaver.common.event.JobCreatedEvent;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
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

    private final JobRepository jobs;
    private final OutboxRepository outbox;
    private final JobCreatedPublisher publisher;
    private final JobMetrics metrics;
    private final Duration age;
    private final int batchSize;

    public OutboxSweeper(JobRepository jobs, OutboxRepository outbox, JobCreatedPublisher publisher,
                         JobMetrics metrics, JobApiConfig config) {
        this.jobs = jobs;
        this.outbox = outbox;
        this.publisher = publisher;
        this.metrics = metrics;
        this.age = publisher.timings().callerWait().plus(config.outbox().sweepMargin());
        this.batchSize = config.outbox().sweepBatchSize();
    }

    @Scheduled(every = "${jobweaver.api.outbox.sweep-interval:5s}", delayed = "${jobweaver.api.outbox.sweep-interval:5s}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP, identity = "outbox-sweeper")
    Uni<Void> scheduledSweep() {
        return sweep()
                .onFailure().invoke(e -> LOG.warnf("outbox sweep failed: %s", e.getMessage()))
                .onFailure().recoverWithNull()
                .replaceWithVoid();
    }

    /** One sweep; returns how many rows it published. */
    public Uni<Integer> sweep() {
        Instant cutoff = Instant.now().minus(age);
        return Panache.withTransaction(() -> outbox.claimOlderThan(cutoff, batchSize)
                        .chain(claimed -> claimed.isEmpty() ? Uni.createFrom().item(0) : publishAll(claimed)))
                .call(published -> Panache.withSession(() -> outbox.count())
                        .invoke(metrics::outboxDepth)
                        .onFailure().recoverWithNull());
    }

    private Uni<Integer> publishAll(List<OutboxEntry> claimed) {
        List<UUID> ids = claimed.stream().map(e -> e.jobId).toList();
        return jobs.list("id in ?1", ids).chain(found -> {
            Map<UUID, JobEntity> byId = found.stream().collect(Collectors.toMap(j -> j.id, Function.identity()));
            List<JobCreatedPublisher.Outgoing> sends = new ArrayList<>();
            for (OutboxEntry entry : claimed) {
                JobEntity job = byId.get(entry.jobId);
                if (job == null) {
                    continue; // the FK cascade makes this impossible; nothing to publish
                }
                JobCreatedEvent event = new JobCreatedEvent(job.id, job.type, job.instruction, job.maxRetries,
                        job.traceId, job.createdAt);
                sends.add(new JobCreatedPublisher.Outgoing(event, entry.eventId,
                        publisher.contextOf(entry.traceparent)));
            }
            if (sends.isEmpty()) {
                return Uni.createFrom().item(0);
            }
            return publisher.publishAll(sends).chain(results -> {
                List<UUID> published = new ArrayList<>();
                for (int i = 0; i < sends.size(); i++) {
                    UUID jobId = sends.get(i).event().jobId();
                    if (results.get(i) == null) {
                        published.add(jobId);
                    } else {
                        LOG.warnf("outbox: job %s still not published: %s", jobId, results.get(i).getMessage());
                    }
                }
                if (published.isEmpty()) {
                    return Uni.createFrom().item(0);
                }
                LOG.infof("outbox: published %d job(s) left behind by earlier requests: %s", published.size(), published);
                metrics.sweptPublished(published.size());
                return outbox.delete("jobId in ?1", published).replaceWith(published.size());
            });
        });
    }
}
