package dev.jobweaver.api.job.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.job.config.JobApiConfig;
import dev.jobweaver.api.job.messaging.JobCreatedPublisher;
import dev.jobweaver.api.job.messaging.PublishFailedException;
import dev.jobweaver.api.job.persistence.JsonColumns;
import dev.jobweaver.api.job.persistence.SubmissionStore;
import dev.jobweaver.common.batch.GroupCommit;
import dev.jobweaver.common.event.JobCreatedEvent;
import dev.jobweaver.common.job.JobIds;
import dev.jobweaver.common.job.JobPayload;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.quarantine.Failures;
import dev.jobweaver.common.reactive.VertxContexts;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.smallrye.common.vertx.VertxContext;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ThreadLocalRandom;
import org.jboss.logging.Logger;
import org.jboss.logging.MDC;

/**
 * Accepts a job so that it can never be lost: the transactional outbox plus a synchronous, bounded publish, with
 * concurrent submissions sharing the work (group commit).
 *
 * <ol>
 *   <li>One statement inserts the job ({@code PENDING}) and its outbox row, together with those of every submission
 *       that arrived while the previous group was being stored; it commits as one transaction. The insert is the
 *       unit of a {@link GroupCommit} (at most {@code publish.max-batch-size} submissions per group,
 *       {@code publish.batches-in-flight} inserts at once).</li>
 *   <li>Publish each job's {@code JobCreatedEvent} (acks=all; the producer's linger groups them) and wait for Kafka's
 *       answer for each, at most the send timeout.</li>
 *   <li>Acknowledged: each of those requests is answered 202, and the outbox rows of the group's acknowledged jobs
 *       are deleted within {@code outbox.delete-delay}, with those of the other groups acknowledged meanwhile
 *       ({@link OutboxCleanup}). The answer does not wait for the delete, whose outcome cannot change it: if the
 *       delete fails, or the process dies first, the sweeper publishes the events once more, and the scheduler
 *       ingests idempotently.</li>
 *   <li>Not acknowledged: one statement deletes the outbox rows of those jobs and marks {@code REJECTED} the jobs
 *       whose row it found; answer 503. If the delete finds no row, the sweeper published the event meanwhile: answer
 *       202 (likewise if the scheduler already reported the job, i.e. an in-doubt send did land). If this statement
 *       fails, the rows stay and the sweeper will publish them later, so the answer is 202 as well: the job is durably
 *       stored and will reach Kafka, and it is never both 503 and run.</li>
 * </ol>
 * Each request's answer depends only on its own job's acknowledgement. A crash after step 1 leaves the outbox rows;
 * {@code OutboxSweeper} publishes them. A group leaves the group commit as soon as its insert committed and goes on
 * to Kafka (steps 2 to 4) outside it, so the next group is stored while this one waits for Kafka: the database and the
 * producer work side by side.
 */
@ApplicationScoped
public class JobSubmissionService {

    private static final Logger LOG = Logger.getLogger(JobSubmissionService.class);

    /** One validated submission waiting for its group, and the answer its request waits for. */
    private record Pending(SubmissionStore.NewJob job, JobCreatedEvent event, Context trace,
                           CompletableFuture<SubmissionOutcome> answer) {
    }

    private final SubmissionStore store;
    private final JobCreatedPublisher publisher;
    private final JobMetrics metrics;
    private final OutboxCleanup outboxCleanup;
    private final Vertx vertx;
    private final ObjectMapper columns = JsonColumns.mapper();
    /** Step 1 per group; a submission's result is its answer to come, which steps 2 to 4 of its group complete. */
    private final GroupCommit<Pending, CompletionStage<SubmissionOutcome>> inserts;

    public JobSubmissionService(SubmissionStore store, JobCreatedPublisher publisher, JobMetrics metrics,
                                OutboxCleanup outboxCleanup, Vertx vertx, JobApiConfig config) {
        this.store = store;
        this.publisher = publisher;
        this.metrics = metrics;
        this.outboxCleanup = outboxCleanup;
        this.vertx = vertx;
        this.inserts = new GroupCommit<>(config.publish().maxBatchSize(), config.publish().batchesInFlight(),
                this::storeAndPublish);
    }

    /**
     * Stores and publishes a validated job in the trace {@link #jobContext} chooses.
     *
     * @param clientTraceparent the request's W3C {@code traceparent} header, or null
     */
    public Uni<SubmissionOutcome> submit(JobType type, JobPayload payload, int maxRetries, String clientTraceparent) {
        Context context = jobContext(Context.current(), clientTraceparent);
        UUID jobId = JobIds.next();
        UUID eventId = UUID.randomUUID();
        String traceId = Span.fromContext(context).getSpanContext().getTraceId(); // valid: jobContext sees to it
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        MDC.put("jobId", jobId.toString());
        Span.fromContext(context).setAttribute("jobweaver.job.id", jobId.toString());

        String instruction;
        try {
            instruction = columns.writeValueAsString(payload);
        } catch (JsonProcessingException e) {
            return Uni.createFrom().failure(new IllegalStateException("could not serialise the payload", e));
        }
        SubmissionStore.NewJob job = new SubmissionStore.NewJob(jobId, type.name(), instruction, traceId, maxRetries,
                now, eventId, publisher.traceparentOf(context));
        JobCreatedEvent event = new JobCreatedEvent(jobId, type, payload, maxRetries, traceId, now);

        // Queued on subscription, stored with its group, then answered by its group's publish (steps 2 to 4).
        Uni<SubmissionOutcome> outcome = Uni.createFrom().completionStage(() -> inserts
                .submit(new Pending(job, event, context, new CompletableFuture<>()))
                .thenCompose(answer -> answer));
        // The group is answered from whichever thread finished it; each request resumes on its own context.
        return VertxContexts.backToCaller(outcome);
    }

    /**
     * Step 1 for one group, the group commit's flush: once the insert committed, steps 2 to 4 start and the group
     * commit is free to store the next group while this one waits for Kafka. Answers, per submission and in the
     * group's order, the answer its group's publish will complete. If the insert fails, the group commit fails each
     * submission of the group with the reason.
     */
    private CompletionStage<List<CompletionStage<SubmissionOutcome>>> storeAndPublish(List<Pending> group) {
        List<SubmissionStore.NewJob> rows = new ArrayList<>(group.size());
        List<CompletionStage<SubmissionOutcome>> answers = new ArrayList<>(group.size());
        for (Pending pending : group) {
            rows.add(pending.job());
            answers.add(pending.answer());
        }
        metrics.submissionGroup(group.size());
        return onOwnContext(() -> store.insert(rows))
                .map(stored -> {
                    publish(group);
                    return answers;
                })
                .onFailure().invoke(e -> {
                    if (Failures.isTransient(e)) {
                        // An outage: every request of the group is answered 503, and the log should not fill with
                        // one stack trace per group while it lasts.
                        LOG.warnf("a group of %d submission(s) could not be stored: %s", group.size(),
                                Failures.describe(e));
                    } else {
                        LOG.errorf(e, "a group of %d submission(s) failed", group.size());
                    }
                })
                .subscribeAsCompletionStage();
    }

    /**
     * Runs the statement on a fresh duplicated context: the group's SQL span is its own, not a child of whichever
     * request happened to start the group.
     */
    private <T> Uni<T> onOwnContext(java.util.function.Supplier<Uni<? extends T>> statement) {
        io.vertx.core.Context current = Vertx.currentContext();
        io.vertx.core.Context root = current != null ? VertxContext.getRootContext(current) : vertx.getOrCreateContext();
        io.vertx.core.Context fresh = VertxContext.createNewDuplicatedContext(root);
        return Uni.createFrom().deferred(statement)
                .runSubscriptionOn(command -> fresh.runOnContext(ignored -> command.run()));
    }

    /** Steps 2 to 4 for one group. */
    private void publish(List<Pending> group) {
        List<JobCreatedPublisher.Outgoing> events = new ArrayList<>(group.size());
        group.forEach(p -> events.add(new JobCreatedPublisher.Outgoing(p.event(), p.job().eventId(), p.trace())));
        publisher.publishAll(events)
                .chain(failures -> settle(group, failures))
                .subscribe().with(ignored -> { }, e -> failAll(group, e));
    }

    private Uni<Void> settle(List<Pending> group, List<PublishFailedException> failures) {
        List<Pending> acknowledged = new ArrayList<>(group.size());
        List<Pending> failed = new ArrayList<>();
        List<PublishFailedException> reasons = new ArrayList<>();
        for (int i = 0; i < group.size(); i++) {
            if (failures.get(i) == null) {
                acknowledged.add(group.get(i));
            } else {
                failed.add(group.get(i));
                reasons.add(failures.get(i));
            }
        }
        return accept(acknowledged).chain(() -> compensate(failed, reasons));
    }

    private Uni<Void> accept(List<Pending> acknowledged) {
        if (acknowledged.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        metrics.submitted(acknowledged.size());
        List<UUID> ids = new ArrayList<>(acknowledged.size());
        for (Pending pending : acknowledged) {
            ids.add(pending.job().id());
            // DEBUG, not INFO: one line per job was 3 % of the API's CPU at 2,000 jobs/s, written synchronously on
            // the event loop; an accepted job is visible in the metrics, its trace, GET.
            LOG.debugf("job %s accepted", pending.job().id());
            pending.answer().complete(SubmissionOutcome.accepted(pending.job().id(), pending.job().traceId()));
        }
        outboxCleanup.deleteLater(ids);
        return Uni.createFrom().voidItem();
    }

    private Uni<Void> compensate(List<Pending> failed, List<PublishFailedException> failures) {
        if (failed.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        List<SubmissionStore.Rejection> rejections = new ArrayList<>(failed.size());
        for (int i = 0; i < failed.size(); i++) {
            UUID jobId = failed.get(i).job().id();
            PublishFailedException failure = failures.get(i);
            logAs(failed.get(i).job(), () -> LOG.warnf("job %s: %s%s", jobId, failure.getMessage(),
                    failure.inDoubt() ? " (outcome in doubt)" : ""));
            rejections.add(new SubmissionStore.Rejection(jobId,
                    truncate("Kafka did not acknowledge the job's event: " + failure.getMessage())));
        }
        return store.reject(rejections, Instant.now())
                .invoke(rejected -> answerCompensated(failed, failures, rejected))
                .onFailure().invoke(e -> {
                    for (Pending pending : failed) {
                        metrics.submitted();
                        logAs(pending.job(), () -> LOG.errorf("job %s: could not mark it REJECTED (%s); it stays in"
                                + " the outbox and the sweeper will publish it, so it is accepted", pending.job().id(),
                                e.getMessage()));
                        pending.answer().complete(SubmissionOutcome.accepted(pending.job().id(),
                                pending.job().traceId()));
                    }
                })
                .onFailure().recoverWithNull()
                .replaceWithVoid();
    }

    private void answerCompensated(List<Pending> failed, List<PublishFailedException> failures, Set<UUID> rejected) {
        for (int i = 0; i < failed.size(); i++) {
            Pending pending = failed.get(i);
            UUID jobId = pending.job().id();
            if (rejected.contains(jobId)) {
                metrics.rejected();
                pending.answer().complete(SubmissionOutcome.rejected(jobId, pending.job().traceId(),
                        failures.get(i).getMessage()));
            } else {
                metrics.submitted();
                logAs(pending.job(), () -> LOG.infof("job %s accepted: its event reached Kafka meanwhile (outbox"
                        + " sweeper or a late append)", jobId));
                pending.answer().complete(SubmissionOutcome.accepted(jobId, pending.job().traceId()));
            }
        }
    }

    /**
     * Logs a line about one job of a group with that job's traceId and jobId in the MDC: group work runs in whichever
     * context finished the group, whose MDC would name another job.
     */
    private static void logAs(SubmissionStore.NewJob job, Runnable log) {
        Object traceId = MDC.get("traceId");
        Object spanId = MDC.get("spanId");
        Object jobId = MDC.get("jobId");
        MDC.put("traceId", job.traceId());
        MDC.remove("spanId");
        MDC.put("jobId", job.id().toString());
        try {
            log.run();
        } finally {
            restore("traceId", traceId);
            restore("spanId", spanId);
            restore("jobId", jobId);
        }
    }

    private static void restore(String key, Object value) {
        if (value == null) {
            MDC.remove(key);
        } else {
            MDC.put(key, value);
        }
    }

    /** Something unexpected after the insert (a bug): every request of the group not answered yet gets the error. */
    private void failAll(List<Pending> group, Throwable failure) {
        LOG.errorf(failure, "a group of %d submission(s) failed", group.size());
        // A future ignores everything after its first completion, so requests already answered keep their answer.
        group.forEach(pending -> pending.answer().completeExceptionally(failure));
    }

    /**
     * The context a job's trace continues from. With the HTTP server instrumentation on (traces recorded: `up
     * --traces`, Kubernetes), the request's span, which already joined a client's {@code traceparent}. With it off
     * (`up` without a trace viewer, where its unrecorded span per request was 9-11% of the API's CPU in a burst), the
     * client's {@code traceparent} itself when it is valid, else a new trace that is not sampled: either way the job has
     * one trace id, from its 202 through the events' {@code traceparent} to every service's log lines.
     */
    Context jobContext(Context current, String clientTraceparent) {
        if (Span.fromContext(current).getSpanContext().isValid()) {
            return current;
        }
        Context client = publisher.contextOf(clientTraceparent);
        if (Span.fromContext(client).getSpanContext().isValid()) {
            return client;
        }
        SpanContext fresh = SpanContext.create(randomHex(16), randomHex(8), TraceFlags.getDefault(),
                TraceState.getDefault());
        return current.with(Span.wrap(fresh));
    }

    /** {@code bytes} random bytes in lower-case hex, as W3C trace and span ids are written (never all zero in practice). */
    private static String randomHex(int bytes) {
        byte[] random = new byte[bytes];
        ThreadLocalRandom.current().nextBytes(random);
        return HexFormat.of().formatHex(random);
    }

    private static String truncate(String text) {
        return text.length() <= 2000 ? text : text.substring(0, 2000);
    }
}
