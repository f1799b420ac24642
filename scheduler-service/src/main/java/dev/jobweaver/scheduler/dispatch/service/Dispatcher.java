package dev.jobweaver.scheduler.dispatch.service;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.error.SchedulerErrorCode;
import dev.jobweaver.common.job.JobPayload;
import dev.jobweaver.scheduler.config.SchedulerConfig;
import dev.jobweaver.scheduler.job.persistence.JobExecution;
import dev.jobweaver.scheduler.job.persistence.JobExecutionRepository;
import dev.jobweaver.scheduler.job.service.JobStateMachine;
import dev.jobweaver.scheduler.job.service.JobStateWriter;
import dev.jobweaver.scheduler.job.service.LeasePolicy;
import dev.jobweaver.scheduler.observability.JobLog;
import dev.jobweaver.scheduler.observability.JobTracing;
import dev.jobweaver.scheduler.observability.SchedulerMetrics;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import io.smallrye.mutiny.Uni;
import io.quarkus.runtime.ShutdownEvent;
import io.smallrye.common.vertx.VertxContext;
import io.vertx.core.Vertx;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * Claims due jobs and dispatches their next attempt to {@code run-job}: retries that became due, and new jobs that
 * ingestion stored {@code PENDING} instead of dispatching them itself (no slot free, a due job waiting, Kafka down).
 *
 * <p>A round is one transaction: {@code SELECT ... WHERE job_status = 'PENDING' AND next_run_at <= now() ORDER BY
 * next_run_at LIMIT batch FOR UPDATE SKIP LOCKED} claims rows that no other replica holds; for each, the
 * {@code RunJobEvent} (eventId derived from (jobId, attempt)) and its {@code RUNNING} status event are published
 * and acknowledged by Kafka; only then are the rows updated to {@code RUNNING} (attempt + 1, lease, version + 1)
 * and the transaction committed.
 *
 * <p>Dual-write rule: a crash or failure before the commit leaves the rows {@code PENDING} at their old attempt;
 * the next round re-dispatches the same attempt number, hence the same eventId, which the worker recognises as the
 * same run. Rows stay locked while Kafka acknowledges, so an outcome that comes back before the commit waits for it.
 *
 * <p>Rounds run one at a time per replica. {@link #wake()} starts one at once (new work arrived), or asks the
 * running one to be followed by another; a round that filled its batch is followed by another at once. The timer
 * ({@link DispatchTimer}) only catches retries that became due and work that arrived at other replicas.
 *
 * <p>At most {@code max-in-flight} attempts run at once: a round claims fewer rows when the limit is near, and every
 * applied outcome or expired lease wakes the dispatcher, since it frees a slot.
 */
@ApplicationScoped
public class Dispatcher {

    private static final Logger LOG = Logger.getLogger(Dispatcher.class);
    /** The error of a job whose stored instruction cannot be read. */
    public static final String UNREADABLE = "stored instruction is unreadable";

    private final JobExecutionRepository repository;
    private final JobStateWriter writer;
    private final LeasePolicy leasePolicy;
    private final JobTracing tracing;
    private final SchedulerMetrics metrics;
    private final ObjectMapper mapper;
    private final Vertx vertx;
    private final int batchSize;
    private final int maxInFlight;
    private final AtomicBoolean running = new AtomicBoolean();
    private final AtomicBoolean again = new AtomicBoolean();
    private volatile boolean stopped;

    public Dispatcher(JobExecutionRepository repository, JobStateWriter writer, LeasePolicy leasePolicy,
                      JobTracing tracing, SchedulerMetrics metrics, ObjectMapper mapper, Vertx vertx,
                      SchedulerConfig config) {
        this.repository = repository;
        this.writer = writer;
        this.leasePolicy = leasePolicy;
        this.tracing = tracing;
        this.metrics = metrics;
        this.mapper = mapper;
        this.vertx = vertx;
        this.batchSize = config.dispatch().batchSize();
        this.maxInFlight = config.dispatch().maxInFlight();
    }

    void stop(@Observes ShutdownEvent event) {
        stopped = true;
    }

    /** Runs a round now, or right after the one in progress. Never blocks. */
    public void wake() {
        if (stopped) {
            return;
        }
        again.set(true);
        if (running.compareAndSet(false, true)) {
            again.set(false);
            // A fresh duplicated context per round, as Quarkus gives each request: it carries the round's
            // OpenTelemetry context and MDC, whichever thread woke the dispatcher.
            VertxContext.createNewDuplicatedContext(vertx.getOrCreateContext()).runOnContext(v -> round());
        }
    }

    private void round() {
        dispatchRound().subscribe().with(
                claimed -> finishRound(claimed.size() >= batchSize),
                failure -> {
                    if (!stopped) {
                        LOG.errorf(failure, "%s: dispatch round failed; the rows stay PENDING for the next round",
                                SchedulerErrorCode.DISPATCH_FAILED.code());
                    }
                    finishRound(false);
                });
    }

    /** Wakes the dispatcher at {@code dueAt} (a retry's next run), in this replica; the timer covers the others. */
    public void wakeAt(Instant dueAt, Instant now) {
        long delay = Math.max(1, Duration.between(now, dueAt).toMillis() + 1);
        vertx.setTimer(delay, id -> wake());
    }

    private void finishRound(boolean batchWasFull) {
        running.set(false);
        if (batchWasFull || again.get()) {
            wake();
        }
    }

    /**
     * One claim-publish-commit round; the ids of the jobs dispatched. Safe to run concurrently with rounds of this
     * or other replicas (SKIP LOCKED makes their claims disjoint); {@link #wake()} is how the service runs it.
     */
    public Uni<List<UUID>> dispatchRound() {
        List<Span> spans = new ArrayList<>();
        return repository.pool().withTransaction(tx -> repository.claimDue(tx, batchSize, maxInFlight)
                .chain(claim -> {
                    if (claim.jobs().isEmpty()) {
                        return Uni.createFrom().item(List.<JobExecution>of());
                    }
                    Instant now = claim.now();
                    List<JobExecution> next = new ArrayList<>(claim.jobs().size());
                    List<Uni<Void>> publishes = new ArrayList<>();
                    Uni<Void> unrunnable = Uni.createFrom().voidItem();
                    for (JobExecution job : claim.jobs()) {
                        Span span = tracing.start("scheduler dispatch", JobTracing.fromTraceparent(job.traceparent()),
                                job.jobId(), job.attempt() + 1);
                        spans.add(span);
                        Context trace = Context.root().with(span);
                        JobPayload payload = payload(job);
                        if (payload == null) {
                            JobExecution failed = JobStateMachine.failUnrunnable(job, UNREADABLE, now);
                            unrunnable = unrunnable.chain(() -> writer.write(tx, job, failed, trace)
                                    .invoke(f -> {
                                        metrics.deadLettered();
                                        JobLog.error(LOG, null, f.jobId(), f.traceId(),
                                                "%s: stored instruction unreadable: job FAILED and dead-lettered",
                                                SchedulerErrorCode.DISPATCH_FAILED.code());
                                    })
                                    .replaceWithVoid());
                            continue;
                        }
                        JobExecution attempt = JobStateMachine.dispatch(job, now, now.plus(leasePolicy.leaseFor(payload)));
                        next.add(attempt);
                        publishes.add(writer.publishAttempt(attempt, payload, trace));
                    }
                    publishes.add(unrunnable);
                    return Uni.join().all(publishes).andFailFast()
                            .chain(() -> repository.updateAll(tx, next))
                            .replaceWith(next);
                }))
                .onItemOrFailure().invoke((dispatched, failure) -> spans.forEach(s -> JobTracing.end(s, failure)))
                .map(dispatched -> {
                    dispatched.forEach(this::dispatched);
                    return dispatched.stream().map(JobExecution::jobId).toList();
                });
    }

    /** Counts and logs an attempt dispatched by a committed transaction, this class's or ingestion's. */
    public void dispatched(JobExecution job) {
        metrics.dispatched(job.attempt(), Duration.between(job.createdAt(), job.dispatchedAt()));
        JobLog.debug(LOG, job.jobId(), job.traceId(), "dispatched attempt %d, leased until %s", job.attempt(),
                job.leaseUntil());
    }

    private JobPayload payload(JobExecution job) {
        try {
            JobPayload payload = mapper.readValue(job.instruction(), JobPayload.class);
            return payload != null && payload.steps() != null && !payload.steps().isEmpty() ? payload : null;
        } catch (Exception e) {
            // Validated at ingestion with the same mapper: only a hand-edited or corrupted row gets here.
            LOG.debugf(e, "unreadable instruction of job %s", job.jobId());
            return null;
        }
    }
}
