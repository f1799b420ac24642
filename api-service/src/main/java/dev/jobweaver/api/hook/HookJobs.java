package dev.jobweaver.api.hook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobweaver.api.job.JobApiConfig;
import dev.jobweaver.api.job.store.JsonColumns;
import dev.jobweaver.api.job.store.SubmissionStore;
import dev.jobweaver.api.job.JobRequest;
import dev.jobweaver.api.job.JobMetrics;
import dev.jobweaver.api.job.JobQueryService;
import dev.jobweaver.api.job.JobSubmissionService;
import dev.jobweaver.api.job.outbox.OutboxBacklog;
import dev.jobweaver.api.job.outbox.OutboxFullException;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.Payloads;
import io.opentelemetry.context.Context;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;

/**
 * Makes the job of a hook's call, the way a submission is made: stored {@code PENDING} with its outbox row in one
 * transaction, its {@code JobCreatedEvent} handed to the outbox relay after the commit, held to the outbox bound like a
 * submission (503 over it).
 *
 * <p>Exactly once per signed request: the job's id is derived from the hook and the call's signature
 * ({@code JobIds.forHookCall}) and the insert is idempotent on it ({@link SubmissionStore#insertOnce}), so the same
 * request repeated (a retry, a replay within the time window, two at once) inserts nothing the second time and is
 * answered with the first job. Runs on the reactive SQL client, on the caller's Vert.x context; never blocks.
 */
@ApplicationScoped
public class HookJobs {

    /** The job of a call: made now, or made by an earlier call of the same signed request. */
    public record Made(UUID jobId, String traceId, boolean repeated) {
    }

    @Inject Pool pool;
    @Inject SubmissionStore store;
    @Inject JobSubmissionService submissions;
    @Inject JobQueryService queries;
    @Inject OutboxBacklog backlog;
    @Inject JobMetrics metrics;
    @Inject JobApiConfig config;

    /**
     * Makes job {@code jobId} from {@code template} with {@code input} as its payload's {@link Payloads#INPUT}, in the
     * trace of the request ({@code traceparent}); completes once it is committed, or with the job an earlier call made
     * under that id. Fails with {@link OutboxFullException} when the unpublished outbox is over its bound.
     */
    public Uni<Made> make(UUID jobId, HookTarget.Job template, JsonNode input, String traceparent) {
        if (!backlog.admits()) {
            metrics.backlogged();
            return Uni.createFrom().failure(new OutboxFullException(backlog.jobs(), backlog.bytes(),
                    backlog.oldestAge(), backlog.bounds()));
        }
        JobSubmissionService.Pending pending;
        try {
            pending = prepare(jobId, template, input, traceparent);
        } catch (IllegalStateException e) {
            return Uni.createFrom().failure(e);
        }
        return pool.withTransaction(connection -> store.insertOnce(connection, List.of(pending.job()),
                submissions.instance())).chain(inserted -> {
            if (inserted.contains(jobId)) {
                metrics.submitted();
                submissions.relayCommitted(List.of(pending));
                return Uni.createFrom().item(new Made(jobId, pending.job().traceId(), false));
            }
            // the same signed request made it before: answer that job, in its own trace
            return queries.find(jobId).map(first -> new Made(jobId, first == null ? null : first.traceId(), true));
        });
    }

    private JobSubmissionService.Pending prepare(UUID jobId, HookTarget.Job template, JsonNode input,
                                                 String traceparent) {
        JobRequest request;
        try {
            request = JsonColumns.mapper().readValue(template.json(), JobRequest.class);
        } catch (IOException e) {
            // validated when stored: a template no job can be made from is a fault of its own, not a passing one
            throw new IllegalStateException("the job template of a hook cannot be read: " + e.getMessage(), e);
        }
        ObjectNode payload = ((ObjectNode) request.payload()).deepCopy();
        payload.set(Payloads.INPUT, input);
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        int maxRetries = request.maxRetryCount() != null ? request.maxRetryCount()
                : config.validation().defaultRetryCount();
        JobControl control = JobControl.withDefaultPriority(request.control(now), config.defaultPriority().hook());
        return submissions.prepareScheduled(jobId, request.jobType(), payload, maxRetries, control, now,
                null, Context.current(), traceparent);
    }
}
