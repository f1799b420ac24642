package dev.jobweaver.api.job.service;

import dev.jobweaver.api.job.messaging.JobCreatedPublisher;
import dev.jobweaver.api.job.messaging.PublishFailedException;
import dev.jobweaver.api.job.persistence.JobEntity;
import dev.jobweaver.api.job.persistence.JobRepository;
import dev.jobweaver.api.job.persistence.OutboxEntry;
import dev.jobweaver.api.job.persistence.OutboxRepository;
import dev.jobweaver.common.event.JobCreatedEvent;
import dev.jobweaver.common.job.JobPayload;
import dev.jobweaver.common.job.JobType;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.context.Context;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.jboss.logging.Logger;
import org.jboss.logging.MDC;

/**
 * Accepts a job so that it can never be lost: the transactional outbox plus a synchronous, bounded publish.
 *
 * <ol>
 *   <li>One transaction inserts the job ({@code PENDING}) and its outbox row; commit.</li>
 *   <li>Publish {@code JobCreatedEvent} (acks=all) and wait for Kafka's answer, at most the send timeout.</li>
 *   <li>Acknowledged: delete the outbox row, answer 202. (If that delete fails the sweeper publishes the event once
 *       more; the scheduler ingests idempotently.)</li>
 *   <li>Not acknowledged: one transaction deletes the outbox row and marks the job {@code REJECTED}; answer 503. If
 *       the delete finds no row, the sweeper published the event meanwhile: answer 202 (likewise if the scheduler
 *       already reported the job, i.e. an in-doubt send did land). If this transaction fails,
 *       the row stays and the sweeper will publish it later, so the answer is 202 as well: the job is durably
 *       stored and will reach Kafka, and it is never both 503 and run.</li>
 * </ol>
 * A crash after step 1 leaves the outbox row; {@code OutboxSweeper} publishes it.
 */
@ApplicationScoped
public class JobSubmissionService {

    private static final Logger LOG = Logger.getLogger(JobSubmissionService.class);

    private final JobRepository jobs;
    private final OutboxRepository outbox;
    private final JobCreatedPublisher publisher;
    private final JobMetrics metrics;

    public JobSubmissionService(JobRepository jobs, OutboxRepository outbox, JobCreatedPublisher publisher,
                                JobMetrics metrics) {
        this.jobs = jobs;
        this.outbox = outbox;
        this.publisher = publisher;
        this.metrics = metrics;
    }

    /** Stores and publishes a validated job; the trace id is the current OpenTelemetry trace's. */
    @WithSpan("submit job")
    public Uni<SubmissionOutcome> submit(JobType type, JobPayload payload, int maxRetries) {
        Context context = Context.current();
        UUID jobId = UUID.randomUUID();
        UUID eventId = UUID.randomUUID();
        String traceId = traceIdOf(context);
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        MDC.put("jobId", jobId.toString());
        Span.fromContext(context).setAttribute("jobweaver.job.id", jobId.toString());

        JobEntity job = JobEntity.accepted(jobId, type, payload, maxRetries, traceId, now);
        OutboxEntry entry = OutboxEntry.of(jobId, eventId, publisher.traceparentOf(context), now);
        JobCreatedEvent event = new JobCreatedEvent(jobId, type, payload, maxRetries, traceId, now);

        return Panache.withTransaction(() -> jobs.persist(job).chain(() -> outbox.persist(entry)))
                .chain(() -> publisher.publish(event, eventId, context))
                .chain(() -> acknowledged(jobId, traceId))
                .onFailure(PublishFailedException.class)
                .recoverWithUni(e -> notAcknowledged(jobId, traceId, (PublishFailedException) e));
    }

    private Uni<SubmissionOutcome> acknowledged(UUID jobId, String traceId) {
        metrics.submitted();
        LOG.infof("job %s accepted", jobId);
        return Panache.withTransaction(() -> outbox.remove(jobId))
                .onFailure().invoke(e -> LOG.warnf("job %s: outbox row not removed (%s); the sweeper will publish"
                        + " the event again, which the scheduler ignores", jobId, e.getMessage()))
                .onFailure().recoverWithNull()
                .replaceWith(SubmissionOutcome.accepted(jobId, traceId));
    }

    private Uni<SubmissionOutcome> notAcknowledged(UUID jobId, String traceId, PublishFailedException failure) {
        String reason = "Kafka did not acknowledge the job's event: " + failure.getMessage();
        LOG.warnf("job %s: %s%s", jobId, failure.getMessage(), failure.inDoubt() ? " (outcome in doubt)" : "");
        // REJECTED only if the outbox row was still there (the sweeper did not publish it) and the scheduler has not
        // reported the job (status_version 0): a status event means the event did reach Kafka after all.
        return Panache.withTransaction(() -> outbox.remove(jobId).chain(removed -> removed == 0
                        ? Uni.createFrom().item(false)
                        : jobs.reject(jobId, truncate(reason), Instant.now()).map(updated -> updated > 0)))
                .map(rejected -> {
                    if (rejected) {
                        metrics.rejected();
                        return SubmissionOutcome.rejected(jobId, traceId, failure.getMessage());
                    }
                    metrics.submitted();
                    LOG.infof("job %s accepted: its event reached Kafka meanwhile (outbox sweeper or a late append)",
                            jobId);
                    return SubmissionOutcome.accepted(jobId, traceId);
                })
                .onFailure().recoverWithItem(e -> {
                    metrics.submitted();
                    LOG.errorf("job %s: could not mark it REJECTED (%s); it stays in the outbox and the sweeper"
                            + " will publish it, so it is accepted", jobId, e.getMessage());
                    return SubmissionOutcome.accepted(jobId, traceId);
                });
    }

    /** The OpenTelemetry trace id of {@code context}, or a fresh random one when tracing is off. */
    static String traceIdOf(Context context) {
        SpanContext span = Span.fromContext(context).getSpanContext();
        if (span.isValid()) {
            return span.getTraceId();
        }
        byte[] random = new byte[16];
        ThreadLocalRandom.current().nextBytes(random);
        return HexFormat.of().formatHex(random);
    }

    private static String truncate(String text) {
        return text.length() <= 2000 ? text : text.substring(0, 2000);
    }
}
