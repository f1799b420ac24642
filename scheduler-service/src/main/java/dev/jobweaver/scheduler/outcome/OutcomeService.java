package dev.jobweaver.scheduler.outcome;

import dev.jobweaver.scheduler.SchedulerConfig;
import dev.jobweaver.scheduler.job.BackoffPolicy;
import dev.jobweaver.scheduler.job.JobExecution;
import dev.jobweaver.scheduler.job.JobStateMachine;
import dev.jobweaver.scheduler.job.JobStateWriter;
import dev.jobweaver.scheduler.job.JobTransitions;
import dev.jobweaver.scheduler.job.Outcome;
import dev.jobweaver.scheduler.job.Transition;
import dev.jobweaver.scheduler.job.store.JobClaims.LockedMany;
import dev.jobweaver.scheduler.job.store.JobClaims;
import dev.jobweaver.scheduler.job.store.JobInserts;
import dev.jobweaver.scheduler.job.store.JobUpdates.Write;
import dev.jobweaver.scheduler.job.store.JobUpdates;
import dev.jobweaver.scheduler.observability.JobLog;
import dev.jobweaver.scheduler.observability.JobTracing;
import dev.jobweaver.scheduler.observability.SchedulerMetrics;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Applies the outcomes of attempts: {@code COMPLETED}; or {@code PENDING} with a backoff while retries remain;
 * or {@code FAILED} with a dead letter; or, for a run its worker handed back unrun, {@code PENDING} again without a
 * retry spent ({@link JobStateMachine#handBack}).
 *
 * <h2>Guarantee</h2>
 * Dual-write rule, for a whole batch (one Kafka poll of a partition) at a time: in one transaction the batch's rows
 * are locked ({@code FOR UPDATE}, in jobId order, waiting for a dispatch round that may still hold one), each
 * outcome is judged against the row as the outcomes before it in the batch left it, every changed row is updated
 * on the version it was read at (one set-based UPDATE), every status event (and dead letter) is published and
 * acknowledged by Kafka, and only then is the transaction committed (the runs of workflow nodes whose jobs ended move
 * on in the same transaction, {@code WorkflowOrchestrator}); the caller acknowledges the batch's records
 * after that. Any failure rolls the whole batch back, and the caller retries it: applying is idempotent.
 *
 * <p>An outcome for a job the transaction cannot see waits for ingestion transactions in progress first: ingestion
 * may have dispatched the job and not committed yet (see {@code IngestionService}). Only then is it unknown.
 *
 * <p>An outcome for an attempt other than the current one is stale and ignored; a redelivered outcome of an attempt
 * already applied re-publishes the current status with the same version, so a crash between commit and publish
 * loses nothing. An outcome of a cancelled job changes nothing and publishes nothing: the cancel holds the row's lock
 * as an outcome does, so one of the two applies first and the other sees its result.
 *
 * <h2>Why batches</h2>
 * One outcome per transaction cost four database round trips and one Kafka acknowledgement per job, taken one after
 * another per partition: that bounded the platform at a few hundred jobs per second. A batch pays them once.
 *
 * <h2>Threads</h2>
 * Runs on the Vert.x context of the consuming channel; nothing blocks.
 */
@ApplicationScoped
public class OutcomeService {

    private static final Logger LOG = Logger.getLogger(OutcomeService.class);

    @Inject JobInserts inserts;
    @Inject JobClaims claims;
    @Inject JobUpdates updates;
    @Inject JobStateWriter writer;
    @Inject BackoffPolicy backoff;
    @Inject JobTracing tracing;
    @Inject SchedulerMetrics metrics;
    @Inject JobTransitions transitions;
    @Inject SchedulerConfig config;

    /**
     * How long a handed-back run waits before its next dispatch: the dispatch aims at a worker that declares the type,
     * and should the heartbeats still show an old assignment of partitions, the wait keeps the run from bouncing
     * between a worker and the scheduler at full speed.
     */
    private Duration handBackDelay() {
        return config.workers().handBackDelay();
    }

    /** What applying an outcome did. */
    public enum Result {
        APPLIED,
        REPUBLISHED,
        STALE,
        /** The job was cancelled: nothing changed, nothing published. */
        CANCELLED,
        UNKNOWN_JOB
    }

    /**
     * An outcome as consumed.
     *
     * @param topic the topic it came from (metrics)
     * @param parent the trace context of the consumed record (the worker's publish span), or null
     */
    public record Received(Outcome outcome, String topic, Context parent) {
    }

    /** What one outcome did, and the job as it left it (null for an unknown job). */
    public record Applied(Received received, Result result, JobExecution job) {
    }

    /** Applies {@code batch} in order, in one transaction; completes after the commit. */
    public Uni<List<Applied>> applyAll(List<Received> batch) {
        if (batch.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return Uni.createFrom().deferred(() -> {
            Instant[] now = new Instant[1];
            long sentAt = System.nanoTime();
            Set<UUID> ids = new LinkedHashSet<>();
            batch.forEach(r -> ids.add(r.outcome().jobId()));
            return transitions.run(t -> lockAll(t.tx(), ids)
                    .chain(locked -> {
                        now[0] = locked.now();
                        Map<UUID, JobExecution> current = new HashMap<>(locked.jobs());
                        Map<UUID, Long> readAt = new HashMap<>();
                        locked.jobs().forEach((id, job) -> readAt.put(id, job.version()));
                        List<Applied> applied = new ArrayList<>(batch.size());
                        List<Uni<Void>> publishes = new ArrayList<>();
                        for (Received received : batch) {
                            Outcome outcome = received.outcome();
                            JobExecution job = current.get(outcome.jobId());
                            if (job == null) {
                                applied.add(new Applied(received, Result.UNKNOWN_JOB, null));
                                continue;
                            }
                            Context base = received.parent() != null ? received.parent()
                                    : JobTracing.fromTraceparent(job.traceparent());
                            Span span = t.trace(tracing.start("scheduler apply "
                                    + outcome.kind().name().toLowerCase(), base, job.jobId(), outcome.attempt()));
                            Context trace = base.with(span);
                            Result result = switch (JobStateMachine.judge(job, outcome)) {
                                case STALE -> Result.STALE;
                                case CANCELLED -> Result.CANCELLED;
                                case ALREADY_APPLIED -> {
                                    publishes.add(writer.publish(job, trace));
                                    yield Result.REPUBLISHED;
                                }
                                case APPLY -> {
                                    job = switch (outcome.kind()) {
                                        case COMPLETED -> JobStateMachine.complete(job, outcome, now[0]);
                                        case FAILED -> JobStateMachine.fail(job, outcome.error(), outcome.startedAt(),
                                                now[0], backoff.delay(job.retryCount(), job.control()));
                                        case HANDED_BACK -> JobStateMachine.handBack(job, outcome.error(), now[0],
                                                now[0].plus(handBackDelay()));
                                    };
                                    current.put(job.jobId(), job);
                                    publishes.add(writer.publish(job, trace));
                                    yield Result.APPLIED;
                                }
                            };
                            span.setAttribute("jobweaver.outcome.result", result.name());
                            applied.add(new Applied(received, result, job));
                        }
                        // One write per changed row: its final state, on the version it was locked at.
                        List<Write> writes = new ArrayList<>();
                        current.forEach((id, job) -> {
                            if (job.version() != readAt.get(id)) {
                                writes.add(new Write(job, readAt.get(id)));
                            }
                        });
                        // The runs of node jobs that ended move on in this transaction (WorkflowOrchestrator).
                        return updates.writeAll(t.tx(), writes)
                                .chain(() -> t.jobsEnded(writes.stream().map(Write::next).toList()))
                                .chain(() -> publishes.isEmpty() ? Uni.createFrom().voidItem()
                                        : Uni.join().all(publishes).andFailFast().replaceWithVoid())
                                .replaceWith(applied);
                    }), (applied, t) -> afterCommit(applied, now[0], sentAt, t));
        });
    }

    /**
     * Locks the batch's jobs. A job it cannot see may be in a transaction of ingestion that dispatched it and has
     * not committed yet: it then waits for such transactions to end and looks for the missing jobs again, so that
     * only a job that really is unknown is reported as such.
     */
    private Uni<LockedMany> lockAll(SqlConnection tx, Set<UUID> ids) {
        return claims.lockAll(tx, ids).chain(locked -> {
            if (locked.jobs().size() == ids.size()) {
                return Uni.createFrom().item(locked);
            }
            Set<UUID> unseen = new LinkedHashSet<>(ids);
            unseen.removeAll(locked.jobs().keySet());
            return inserts.awaitIngestions()
                    .chain(() -> claims.lockAll(tx, unseen))
                    .map(locked::and);
        });
    }

    private void afterCommit(List<Applied> batch, Instant now, long sentAt, Transition t) {
        boolean freedSlots = false;
        for (Applied applied : batch) {
            Outcome outcome = applied.received().outcome();
            JobExecution job = applied.job();
            switch (applied.result()) {
                case UNKNOWN_JOB -> {
                    metrics.unknownOutcome();
                    JobLog.warn(LOG, outcome.jobId(), null, "%s outcome of attempt %d for an unknown job ignored",
                            outcome.kind(), outcome.attempt());
                }
                case STALE -> {
                    metrics.staleOutcome(applied.received().topic());
                    JobLog.info(LOG, job.jobId(), job.traceId(),
                            "stale %s outcome of attempt %d (eventId %s) ignored: job is %s at attempt %d",
                            outcome.kind(), outcome.attempt(), outcome.eventId(), job.status(), job.attempt());
                }
                case CANCELLED -> JobLog.debug(LOG, job.jobId(), job.traceId(),
                        "%s outcome of attempt %d ignored: job is CANCELLED", outcome.kind(), outcome.attempt());
                case REPUBLISHED -> {
                    metrics.redeliveredOutcome();
                    JobLog.info(LOG, job.jobId(), job.traceId(),
                            "%s outcome of attempt %d already applied: re-published status %s v%d",
                            outcome.kind(), outcome.attempt(), job.status(), job.version());
                }
                case APPLIED -> {
                    freedSlots = true;
                    switch (job.status()) {
                        case COMPLETED -> {
                            metrics.completed(job);
                            // The normal end, once per job: counted and published, and a line per job at INFO was
                            // 4% of the scheduler's CPU in a burst. Failures, retries and dead letters stay INFO/WARN.
                            JobLog.debug(LOG, job.jobId(), job.traceId(), "job COMPLETED after %d attempt(s)",
                                    job.attempt());
                        }
                        case PENDING -> {
                            if (outcome.kind() == Outcome.Kind.HANDED_BACK) {
                                metrics.handedBack();
                                JobLog.info(LOG, job.jobId(), job.traceId(),
                                        "attempt %d handed back unrun (%s): dispatched again at %s", job.attempt(),
                                        job.lastError(), job.nextRunAt());
                            } else {
                                metrics.retryScheduled(job, "failed");
                                JobLog.info(LOG, job.jobId(), job.traceId(),
                                        "attempt %d failed (%s): retry %d of %d at %s", job.attempt(),
                                        job.lastError(), job.retryCount(), job.maxRetries(), job.nextRunAt());
                            }
                            t.wakeDispatcherAt(job.nextRunAt(), now, sentAt);
                        }
                        case FAILED -> {
                            metrics.deadLettered(job);
                            JobLog.warn(LOG, job.jobId(), job.traceId(),
                                    "attempt %d failed (%s): retries exhausted, job FAILED and dead-lettered",
                                    job.attempt(), job.lastError());
                        }
                        default -> {
                        }
                    }
                }
            }
        }
        if (freedSlots) {
            t.wakeDispatcher(); // slots of the in-flight limit are free
        }
    }
}
