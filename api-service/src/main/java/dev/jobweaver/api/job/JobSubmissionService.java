package dev.jobweaver.api.job;

import dev.jobweaver.api.job.outbox.OutboxBacklog;
import dev.jobweaver.api.job.outbox.OutboxFullException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.job.outbox.OutboxRelay;
import dev.jobweaver.api.job.outbox.OutboxSweeper;
import dev.jobweaver.api.job.store.IdempotencyStore;
import dev.jobweaver.api.job.store.JsonColumns;
import dev.jobweaver.api.job.store.SubmissionStore;
import dev.jobweaver.api.security.SubmissionRateLimiter;
import dev.jobweaver.api.platform.http.RefusedException;
import dev.jobweaver.common.batch.GroupCommit;
import dev.jobweaver.common.event.JobCreatedEvent;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.JobIds;
import dev.jobweaver.common.job.JobOrigin;
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
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import org.jboss.logging.Logger;
import org.jboss.logging.MDC;

/**
 * Accepts a job once it is durably committed with its outbox row, with concurrent submissions sharing one insert and
 * one commit (group commit); Kafka is not waited for.
 *
 * <ol>
 *   <li>Refuse with {@code 429 API.RATE_LIMITED} if the job's tenant is over its submission rate
 *       ({@link SubmissionRateLimiter}); the tenant is final here, whoever named it.</li>
 *   <li>Refuse with {@link OutboxFullException} (503) if the unpublished outbox is over its bound
 *       ({@link OutboxBacklog}): Kafka has not taken jobs for a while, and the backlog must not grow without end.</li>
 *   <li>One statement inserts the job ({@code PENDING}) and its outbox row, together with those of every submission
 *       that arrived while the previous group was being stored, and commits (synchronous commit: the job survives a
 *       crash of the database once it returned). The insert is the unit of a {@link GroupCommit} (at most
 *       {@code publish.max-batch-size} submissions per group, {@code publish.batches-in-flight} inserts at once).
 *       If it fails, every submission of the group fails with the reason (503 when the database is unavailable).</li>
 *   <li>Committed: each request of the group is answered 202, and the group's events are handed to the
 *       {@link OutboxRelay}, which publishes them right after the commit and deletes the rows Kafka acknowledged.
 *       What the relay cannot publish (Kafka down for longer than its delivery timeout, a crash) the
 *       {@link OutboxSweeper} publishes later. A committed job is therefore never lost, and never refused after the
 *       fact: there is no compensation and no job in doubt.</li>
 * </ol>
 *
 * <p>A submission with an {@code Idempotency-Key} ({@link #submitOnce}) takes the same steps in a statement of its own,
 * which also claims the key, so that the key commits with its job. A replay (the key's first job answered again) gives
 * its rate-limit token back: it stores nothing.
 */
@ApplicationScoped
public class JobSubmissionService {

    private static final Logger LOG = Logger.getLogger(JobSubmissionService.class);

    /**
     * One validated job ready to store: its row, its event and the trace it continues. A submission waits in its group
     * as one; a schedule's job is stored as one in the schedule's own transaction ({@link #prepareScheduled}).
     */
    public record Pending(SubmissionStore.NewJob job, JobCreatedEvent event, Context trace) {
    }

    private final SubmissionStore store;
    private final IdempotencyStore idempotency;
    private final Duration keyTtl;
    private final JobCreatedPublisher publisher;
    private final OutboxRelay relay;
    private final OutboxBacklog backlog;
    private final JobMetrics metrics;
    private final SubmissionRateLimiter rateLimiter;
    private final Vertx vertx;
    private final String instance;
    private final ObjectMapper columns = JsonColumns.mapper();
    /** Step 2 per group; a submission's result is its answer. */
    private final GroupCommit<Pending, AcceptedJob> inserts;

    public JobSubmissionService(SubmissionStore store, IdempotencyStore idempotency, JobCreatedPublisher publisher,
                                OutboxRelay relay, OutboxBacklog backlog, OutboxSweeper sweeper, JobMetrics metrics,
                                SubmissionRateLimiter rateLimiter, Vertx vertx, JobApiConfig config) {
        this.store = store;
        this.idempotency = idempotency;
        this.keyTtl = config.idempotency().ttl();
        this.publisher = publisher;
        this.relay = relay;
        this.backlog = backlog;
        this.metrics = metrics;
        this.rateLimiter = rateLimiter;
        this.vertx = vertx;
        this.instance = sweeper.instance();
        this.inserts = new GroupCommit<>(config.publish().maxBatchSize(), config.publish().batchesInFlight(),
                this::store);
    }

    /**
     * Stores a validated job in the trace {@link #jobContext} chooses; completes once it is committed.
     *
     * @param payload the payload's tree, as its type's record writes it
     * @param control the job's control with its start resolved; null when the request asks for none
     * @param acceptedAt when the job is accepted (its {@code createdAt}), to the microsecond the database keeps
     * @param clientTraceparent the request's W3C {@code traceparent} header, or null
     * @throws OutboxFullException (as the Uni's failure) when the unpublished outbox is over its bound
     * @throws RefusedException (as the Uni's failure) {@code 429} when the job's tenant is over its submission rate
     */
    public Uni<AcceptedJob> submit(JobType type, JsonNode payload, int maxRetries, JobControl control,
                                   Instant acceptedAt, String clientTraceparent) {
        Pending pending;
        try {
            rateLimiter.acquire(JobControl.orDefaults(control).tenantOrDefault());
            pending = prepare(type, payload, maxRetries, control, acceptedAt, clientTraceparent);
        } catch (OutboxFullException | IllegalStateException | RefusedException e) {
            return Uni.createFrom().failure(e);
        }
        // Queued on subscription, answered once its group committed.
        Uni<AcceptedJob> accepted = Uni.createFrom().completionStage(() -> inserts.submit(pending));
        // The group is answered from whichever thread finished it; each request resumes on its own context.
        return VertxContexts.backToCaller(accepted);
    }

    /**
     * Stores a validated job under an {@code Idempotency-Key}, unless the key of the job's tenant is live: then
     * answers the first submission's answer when {@code fingerprint} is the first body's, and fails with
     * {@link IdempotencyConflictException} when it is not. The key, the job and its outbox row are one statement, so
     * concurrent duplicates make exactly one job. Not grouped with other submissions: a keyed submission is its own
     * statement, and unkeyed ones keep their group commit.
     *
     * @param fingerprint what identifies the request's body (see the REST layer)
     * @throws OutboxFullException (as the Uni's failure) when the unpublished outbox is over its bound
     * @throws RefusedException (as the Uni's failure) {@code 429} when the job's tenant is over its submission rate
     */
    public Uni<AcceptedJob> submitOnce(JobType type, JsonNode payload, int maxRetries, JobControl control,
                                       Instant acceptedAt, String clientTraceparent, String key, String fingerprint) {
        String tenant = JobControl.orDefaults(control).tenantOrDefault();
        Pending pending;
        try {
            rateLimiter.acquire(tenant);
            pending = prepare(type, payload, maxRetries, control, acceptedAt, clientTraceparent);
        } catch (OutboxFullException | IllegalStateException | RefusedException e) {
            return Uni.createFrom().failure(e);
        }
        Uni<AcceptedJob> accepted = Uni.createFrom().deferred(() -> storeKeyed(pending, tenant, key, fingerprint,
                true));
        return VertxContexts.backToCaller(accepted);
    }

    private Uni<AcceptedJob> storeKeyed(Pending pending, String tenant, String key, String fingerprint,
                                        boolean mayRetry) {
        Instant expiredAt = Instant.now().minus(keyTtl);
        return idempotency.insert(pending.job(), instance, tenant, key, fingerprint, expiredAt).chain(stored -> {
            if (stored) {
                return Uni.createFrom().item(committed(List.of(pending)).getFirst());
            }
            return idempotency.find(tenant, key, expiredAt).chain(first -> {
                if (first == null) {
                    // live at the insert, gone now: the cleanup took it as it expired; it is free again
                    return mayRetry ? storeKeyed(pending, tenant, key, fingerprint, false)
                            : Uni.createFrom().failure(new IllegalStateException("Idempotency-Key '" + key
                                    + "' could neither be claimed nor found"));
                }
                if (!first.fingerprint().equals(fingerprint)) {
                    return Uni.createFrom().failure(new IdempotencyConflictException(key, first.jobId()));
                }
                metrics.idempotentReplay();
                rateLimiter.release(tenant);
                return Uni.createFrom().item(new AcceptedJob(first.jobId(), first.traceId()));
            });
        });
    }

    /**
     * The job ready to store.
     *
     * @throws OutboxFullException when the unpublished outbox is over its bound
     */
    private Pending prepare(JobType type, JsonNode payload, int maxRetries, JobControl control, Instant acceptedAt,
                            String clientTraceparent) {
        if (!backlog.admits()) {
            metrics.backlogged();
            throw new OutboxFullException(backlog.jobs(), backlog.bytes(), backlog.oldestAge(), backlog.bounds());
        }
        Context context = jobContext(Context.current(), clientTraceparent);
        return prepared(JobIds.next(), type, payload, maxRetries, control, acceptedAt, null, context);
    }

    /**
     * A job whose id its origin fixes (a schedule's tick, an inbound hook's signed call), ready to store under
     * {@code jobId} with its {@code origin} (null for a hook's), in the trace {@link #jobContext} chooses for
     * {@code current} and {@code traceparent} (a tick's record header, or the request's). Not held to the outbox bound
     * here: a tick cannot be refused, only retried, and ticks are few; a hook's caller checks the bound itself.
     *
     * @throws IllegalStateException when the payload cannot be written
     */
    public Pending prepareScheduled(UUID jobId, JobType type, JsonNode payload, int maxRetries, JobControl control,
                                    Instant acceptedAt, JobOrigin origin, Context current, String traceparent) {
        return prepared(jobId, type, payload, maxRetries, control, acceptedAt, origin,
                jobContext(current, traceparent));
    }

    private Pending prepared(UUID jobId, JobType type, JsonNode payload, int maxRetries, JobControl control,
                             Instant acceptedAt, JobOrigin origin, Context context) {
        UUID eventId = UUID.randomUUID();
        String traceId = Span.fromContext(context).getSpanContext().getTraceId(); // valid: jobContext sees to it
        Instant now = acceptedAt;
        MDC.put("jobId", jobId.toString());
        Span.fromContext(context).setAttribute("jobweaver.job.id", jobId.toString());

        String instruction;
        int controlBytes;
        try {
            instruction = columns.writeValueAsString(payload);
            controlBytes = control == null ? 0 : columns.writeValueAsString(control).length();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("could not serialise the payload", e);
        }
        SubmissionStore.NewJob job = new SubmissionStore.NewJob(jobId, type.name(), instruction, traceId, maxRetries,
                now, eventId, publisher.traceparentOf(context), eventBytes(instruction) + controlBytes, control,
                origin);
        JobCreatedEvent event = new JobCreatedEvent(jobId, type, payload, maxRetries, traceId, now, control, origin);
        return new Pending(job, event, context);
    }

    /**
     * What the outbox bound counts for a job: its instruction (as stored; characters, which is the byte count for the
     * ASCII JSON the API writes, and a lower bound otherwise) plus the event's fixed fields and headers; the caller
     * adds its job control's JSON, when it has one.
     */
    static int eventBytes(String instructionJson) {
        return instructionJson.length() + 256;
    }

    /**
     * One group, the group commit's flush: inserts and commits it, answers each submission, then hands the events to
     * the relay, which the group commit does not wait for. If the insert fails, the group commit fails each submission
     * of the group with the reason.
     */
    private CompletionStage<List<AcceptedJob>> store(List<Pending> group) {
        List<SubmissionStore.NewJob> rows = new ArrayList<>(group.size());
        for (Pending pending : group) {
            rows.add(pending.job());
        }
        metrics.submissionGroup(group.size());
        return onOwnContext(() -> store.insert(rows, instance))
                .map(stored -> committed(group))
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

    /** Accounts for a committed group, answers each submission, and hands the events to the relay. */
    private List<AcceptedJob> committed(List<Pending> group) {
        metrics.submitted(group.size());
        List<AcceptedJob> answers = new ArrayList<>(group.size());
        for (Pending pending : group) {
            // DEBUG, not INFO: one line per job was 3 % of the API's CPU at 2,000 jobs/s, written synchronously on the
            // event loop; an accepted job is visible in the metrics, its trace, GET.
            LOG.debugf("job %s accepted", pending.job().id());
            answers.add(new AcceptedJob(pending.job().id(), pending.job().traceId()));
        }
        relayCommitted(group);
        return answers;
    }

    /**
     * Counts jobs just committed with their outbox rows in the backlog and hands their events to the relay, which
     * publishes them without the caller waiting; what it cannot publish, the sweeper does. For submissions and for the
     * jobs schedules make.
     */
    public void relayCommitted(List<Pending> committed) {
        if (committed.isEmpty()) {
            return;
        }
        long bytes = 0;
        List<JobCreatedPublisher.Outgoing> events = new ArrayList<>(committed.size());
        for (Pending pending : committed) {
            bytes += pending.job().eventBytes();
            events.add(new JobCreatedPublisher.Outgoing(pending.event(), pending.job().eventId(), pending.trace(),
                    pending.job().eventBytes()));
        }
        backlog.stored(committed.size(), bytes);
        relay.relayCommitted(events);
    }

    /** This instance's name, stamped on the outbox rows it stores; null if it has none. */
    public String instance() {
        return instance;
    }

    /**
     * Runs the statement on a fresh duplicated context: the group's SQL span is its own, not a child of whichever
     * request happened to start the group.
     */
    private <T> Uni<T> onOwnContext(Supplier<Uni<? extends T>> statement) {
        io.vertx.core.Context current = Vertx.currentContext();
        io.vertx.core.Context root = current != null ? VertxContext.getRootContext(current) : vertx.getOrCreateContext();
        io.vertx.core.Context fresh = VertxContext.createNewDuplicatedContext(root);
        return Uni.createFrom().deferred(statement)
                .runSubscriptionOn(command -> fresh.runOnContext(ignored -> command.run()));
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
}
