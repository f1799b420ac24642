package dev.jobweaver.scheduler.sweep;

import dev.jobweaver.common.error.SchedulerErrorCode;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.scheduler.SchedulerConfig;
import dev.jobweaver.scheduler.job.BackoffPolicy;
import dev.jobweaver.scheduler.job.JobExecution;
import dev.jobweaver.scheduler.job.JobStateMachine;
import dev.jobweaver.scheduler.job.JobStateWriter;
import dev.jobweaver.scheduler.job.JobTransitions;
import dev.jobweaver.scheduler.job.Transition;
import dev.jobweaver.scheduler.job.store.JobClaims;
import dev.jobweaver.scheduler.observability.JobLog;
import dev.jobweaver.scheduler.observability.JobTracing;
import dev.jobweaver.scheduler.observability.SchedulerMetrics;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptor;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Treats a {@code RUNNING} attempt whose lease has passed (its worker died, a record was lost) as failed with
 * reason {@value JobStateMachine#LEASE_EXPIRED}: retried with backoff or dead-lettered, like any failure. No job
 * stays {@code RUNNING} forever.
 *
 * <p>Rows are claimed with {@code FOR UPDATE SKIP LOCKED}, so replicas sweep disjoint rows and an outcome being
 * applied to a row is never raced. Same dual-write rule as outcomes: update, publish, await acks, commit.
 *
 * <p>A lease is only judged while the outcomes can arrive: no sweep runs while this replica's consumers of outcomes
 * are out of contact with the broker ({@link OutcomeContact}), nor within {@code lease.sweep-after-start} of the
 * contact's beginning, after a start as after an outage. The outcomes that waited (in Kafka, or in a worker's
 * producer while the broker was down) are applied first, so a broker outage longer than a lease's grace fails no
 * run that finished meanwhile, and runs none twice.
 */
@ApplicationScoped
public class LeaseSweeper {

    private static final Logger LOG = Logger.getLogger(LeaseSweeper.class);

    @Inject JobClaims claims;
    @Inject JobStateWriter writer;
    @Inject BackoffPolicy backoff;
    @Inject JobTracing tracing;
    @Inject SchedulerMetrics metrics;
    @Inject JobTransitions transitions;
    @Inject SchedulerConfig config;
    /**
     * Set as shutdown begins. No tick starts a sweep from then on ({@code ApplicationNotRunning}); a sweep already
     * running fails on the closing pool, which is no news.
     */
    private volatile boolean stopping;
    @Inject OutcomeContact contact;

    /**
     * Every sweep interval, on the event loop. A tick while the previous sweep's {@code Uni} has not completed is
     * skipped ({@code SKIP}: Quarkus clears its running flag only when the returned {@code Uni} completes), so two
     * sweeps of one replica never overlap; replicas need no such guard, since their claims skip each other's rows.
     */
    @Scheduled(every = "${jobweaver.scheduler.lease.sweep-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> scheduledSweep() {
        Instant now = Instant.now();
        if (!mayExpire(now, contact.since(now), config.lease().sweepAfterStart())) {
            return Uni.createFrom().voidItem();
        }
        return sweepAll()
                .onFailure().invoke(e -> {
                    if (stopping) {
                        LOG.debugf("lease sweep interrupted by shutdown: %s", e.getMessage());
                    } else {
                        LOG.errorf(e, "%s: lease sweep failed; it runs again on the next tick",
                                SchedulerErrorCode.LEASE_EXPIRED.code());
                    }
                })
                .onFailure().recoverWithNull()
                .replaceWithVoid();
    }

    /**
     * Whether leases may expire at {@code now}, given since when the outcomes can arrive ({@code null}: they cannot).
     * Within {@code quiet} of the contact's beginning the outcomes that waited for it (a restart, a crash, a broker
     * outage) are being applied, and a lease that expired meanwhile is no sign of a lost run until they are.
     */
    static boolean mayExpire(Instant now, Instant contactSince, Duration quiet) {
        return contactSince != null && !now.isBefore(contactSince.plus(quiet));
    }

    void stopping(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE) ShutdownEvent event) {
        stopping = true;
    }

    /** Sweeps batches until one is not full; the number of attempts expired. */
    public Uni<Integer> sweepAll() {
        return Multi.createBy().repeating().uni(this::sweepOnce)
                .whilst(expired -> expired.size() >= config.lease().sweepBatchSize())
                .collect().asList()
                .map(batches -> batches.stream().mapToInt(List::size).sum());
    }

    /** One transaction over at most one batch of expired leases; the jobs it moved. */
    public Uni<List<JobExecution>> sweepOnce() {
        return transitions.run(t -> claims.claimExpiredLeases(t.tx(), config.lease().sweepBatchSize()).chain(claim -> {
            Instant now = claim.now();
            List<JobExecution> moved = new ArrayList<>();
            Uni<Void> chain = Uni.createFrom().voidItem();
            for (JobExecution job : claim.jobs()) {
                chain = chain.chain(() -> {
                    Span span = t.trace(tracing.start("scheduler lease expired",
                            JobTracing.fromTraceparent(job.traceparent()), job.jobId(), job.attempt()));
                    JobExecution next = JobStateMachine.fail(job, JobStateMachine.LEASE_EXPIRED, null, now,
                            backoff.delay(job.retryCount(), job.control()));
                    return writer.write(t.tx(), job, next, Context.root().with(span))
                            .invoke(moved::add).replaceWithVoid();
                });
            }
            // A node job that failed for good moves its run on in this transaction (WorkflowOrchestrator).
            return chain.chain(() -> t.jobsEnded(moved)).replaceWith(moved);
        }), this::afterCommit);
    }

    private void afterCommit(List<JobExecution> moved, Transition t) {
        for (JobExecution job : moved) {
            afterCommit(job, t);
        }
        if (!moved.isEmpty()) {
            t.wakeDispatcher(); // slots of the in-flight limit are free
        }
    }

    private void afterCommit(JobExecution job, Transition t) {
        metrics.leaseExpired();
        if (job.status() == JobStatus.PENDING) {
            metrics.retryScheduled(job, "lease_expired");
            JobLog.warn(LOG, job.jobId(), job.traceId(), "%s: attempt %d lease expired: retry %d of %d at %s",
                    SchedulerErrorCode.LEASE_EXPIRED.code(), job.attempt(), job.retryCount(), job.maxRetries(),
                    job.nextRunAt());
            t.wakeDispatcherAt(job.nextRunAt(), job.updatedAt(), System.nanoTime());
        } else {
            metrics.deadLettered(job);
            JobLog.warn(LOG, job.jobId(), job.traceId(),
                    "%s: attempt %d lease expired: retries exhausted, job FAILED and dead-lettered",
                    SchedulerErrorCode.LEASE_EXPIRED.code(), job.attempt());
        }
    }
}
