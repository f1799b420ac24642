package dev.jobweaver.api.job;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.api.job.store.JobDeletionStore;
import dev.jobweaver.api.job.store.StoredJob;
import dev.jobweaver.common.event.EventRules;
import dev.jobweaver.common.event.JobCommandEvent;
import dev.jobweaver.common.job.JobCommand;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.opentelemetry.sdk.trace.samplers.SamplingDecision;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Hands a client's cancel, delete or requeue of a job (and the retention purge's purge of one) to the scheduler on {@code job-commands}, in the job's trace,
 * and removes a deleted job from the read model. The scheduler decides what a command does; the API only checks the
 * job's status (or its dead letter's) as it stores it, before calling here. Called on the request's Vert.x event
 * loop, never blocking it (the send is on a virtual thread); every result is delivered back on that context.
 */
@ApplicationScoped
public class JobCommandService {

    private static final AttributeKey<String> JOB_ID = AttributeKey.stringKey("jobweaver.job.id");

    private final JobCommandPublisher publisher;
    private final JobDeletionStore deletions;
    private final JobMetrics metrics;
    private final Sampler sampler;

    public JobCommandService(JobCommandPublisher publisher, JobDeletionStore deletions, JobMetrics metrics,
                             @ConfigProperty(name = "quarkus.otel.traces.sampler.arg", defaultValue = "1.0")
                             double samplerRatio) {
        this.publisher = publisher;
        this.deletions = deletions;
        this.metrics = metrics;
        this.sampler = Sampler.traceIdRatioBased(samplerRatio);
    }

    /**
     * Sends {@code CANCEL} for {@code job}. Completes once Kafka acknowledged the command, on the caller's Vert.x
     * context; fails with {@link PublishFailedException} when Kafka did not within
     * {@code jobweaver.api.commands.timeout}.
     */
    public Uni<Void> cancel(StoredJob job) {
        try (Scope ignored = jobContext(job, sampler).makeCurrent()) {
            return cancelInJobTrace(job);
        }
    }

    /**
     * Sends {@code DELETE} for {@code job}, then deletes its rows. True once both are done, false when its rows were
     * already gone (a concurrent delete); fails with {@link PublishFailedException}, with nothing deleted, when Kafka did
     * not acknowledge the command in time. Completes on the caller's Vert.x context.
     */
    public Uni<Boolean> delete(StoredJob job) {
        try (Scope ignored = jobContext(job, sampler).makeCurrent()) {
            return deleteInJobTrace(job);
        }
    }

    /**
     * Sends {@code REQUEUE} for the dead-lettered job {@code jobId} as it failed at {@code failedAt}, with its new
     * payload and retry count when not null, in the job's trace ({@code traceId}, null when unknown). The scheduler
     * requeues the job only while that failure is its current one. Completes once Kafka acknowledged the command, on
     * the caller's Vert.x context; fails with {@link PublishFailedException} when Kafka did not within
     * {@code jobweaver.api.commands.timeout}.
     */
    public Uni<Void> requeue(UUID jobId, String traceId, JsonNode payload, Integer maxRetryCount, Instant failedAt) {
        try (Scope ignored = jobContext(jobId, traceId, sampler).makeCurrent()) {
            return requeueInJobTrace(jobId, traceId, payload, maxRetryCount, failedAt);
        }
    }

    /**
     * Sends {@code PURGE} for the finished jobs {@code jobIds}, whose retention ended: the scheduler forgets them, the
     * caller deletes their rows after this completed. A record a partition ({@link JobCommandPublisher#publishPurge}),
     * in the caller's trace (the purge round's), not the jobs'. Completes once Kafka acknowledged every record, on the
     * caller's Vert.x context; fails with {@link PublishFailedException} when Kafka did not within
     * {@code jobweaver.api.commands.timeout}.
     */
    public Uni<Void> purge(List<UUID> jobIds) {
        return publisher.publishPurge(jobIds, Instant.now(), Context.current())
                .invoke(() -> metrics.commandsAccepted(JobCommand.PURGE, jobIds.size()));
    }

    /** The span of a requeue, as {@link #cancelInJobTrace}. */
    @WithSpan("requeue job")
    Uni<Void> requeueInJobTrace(UUID jobId, String traceId, JsonNode payload, Integer maxRetryCount,
                                Instant failedAt) {
        Span.current().setAttribute(JOB_ID, jobId.toString());
        JobCommandEvent event = JobCommandEvent.requeue(jobId, EventRules.isTraceId(traceId) ? traceId : null,
                Instant.now(), payload, maxRetryCount, failedAt);
        String problem = EventRules.problem(event);
        if (problem != null) {
            return Uni.createFrom().failure(new IllegalStateException("a REQUEUE command for job " + jobId
                    + " breaks a rule: " + problem));
        }
        return publisher.publish(event, Context.current())
                .invoke(() -> metrics.commandAccepted(JobCommand.REQUEUE));
    }

    /** The span of a cancel; the job's trace is current when this is called (self-invocation is intercepted by ArC). */
    @WithSpan("cancel job")
    Uni<Void> cancelInJobTrace(StoredJob job) {
        Span.current().setAttribute(JOB_ID, job.id().toString());
        return publisher.publish(command(job, JobCommand.CANCEL), Context.current())
                .invoke(() -> metrics.commandAccepted(JobCommand.CANCEL));
    }

    /** The span of a delete, as {@link #cancelInJobTrace}. */
    @WithSpan("delete job")
    Uni<Boolean> deleteInJobTrace(StoredJob job) {
        Span.current().setAttribute(JOB_ID, job.id().toString());
        // Kafka first: if it does not take the command, the client is answered 503 and the job is still there to
        // delete again. The other order would leave the scheduler and the workers holding a job the API forgot.
        return publisher.publish(command(job, JobCommand.DELETE), Context.current())
                .chain(() -> deletions.delete(job.id()))
                .invoke(deleted -> {
                    if (deleted) {
                        metrics.commandAccepted(JobCommand.DELETE);
                    }
                });
    }

    private static JobCommandEvent command(StoredJob job, JobCommand command) {
        String traceId = EventRules.isTraceId(job.traceId()) ? job.traceId() : null;
        JobCommandEvent event = new JobCommandEvent(job.id(), command, traceId, Instant.now());
        String problem = EventRules.problem(event);
        if (problem != null) {
            throw new IllegalStateException("a " + command + " command for job " + job.id() + " breaks a rule: " + problem);
        }
        return event;
    }

    /**
     * The job's trace as the parent of its commands' spans: a remote parent with the job's trace id and a span id made
     * from its jobId. Only the trace id of the request that submitted the job is stored, not its span, so a command's
     * spans hang under this stand-in; trace viewers group spans by trace id. Sampled as the job's trace was: the
     * service's sampler (parent-based, trace-id ratio) decides a root by its trace id alone. The root context when
     * the stored trace id is not a valid one.
     */
    static Context jobContext(StoredJob job, Sampler sampler) {
        return jobContext(job.id(), job.traceId(), sampler);
    }

    /** {@link #jobContext(StoredJob, Sampler)} of the job {@code jobId} whose trace id is {@code traceId}. */
    static Context jobContext(UUID jobId, String traceId, Sampler sampler) {
        if (traceId == null || !EventRules.isTraceId(traceId)) {
            return Context.root(); // no trace has it, and the sampler cannot read it
        }
        long low = jobId.getLeastSignificantBits();
        String spanId = String.format("%016x", low == 0 ? 1 : low);
        boolean sampled = sampler.shouldSample(Context.root(), traceId, "job", SpanKind.INTERNAL, Attributes.empty(),
                List.of()).getDecision() == SamplingDecision.RECORD_AND_SAMPLE;
        return Context.root().with(Span.wrap(SpanContext.createFromRemoteParent(traceId, spanId,
                sampled ? TraceFlags.getSampled() : TraceFlags.getDefault(), TraceState.getDefault())));
    }
}
