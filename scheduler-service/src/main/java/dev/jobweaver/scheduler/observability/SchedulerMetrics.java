package dev.jobweaver.scheduler.observability;

import dev.jobweaver.common.metrics.Counters;
import dev.jobweaver.scheduler.SchedulerConfig;
import dev.jobweaver.scheduler.job.JobExecution;
import dev.jobweaver.scheduler.observability.AttemptCounters.AttemptOutcome;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The scheduler's Micrometer meters, exposed in Prometheus format at {@code /q/metrics}.
 *
 * <p>Created at start ({@code @Startup}), so every meter is in the first scrape; as a lazy bean it appeared only with
 * the first event or gauge refresh, and the refresh no longer runs before the application has started.
 */
@Startup
@ApplicationScoped
public class SchedulerMetrics {

    private final MeterRegistry registry;
    private final AtomicLong pending = new AtomicLong();
    private final AtomicLong running = new AtomicLong();
    private final AtomicLong delayed = new AtomicLong();
    private final Counter ingested;
    private final Counter duplicateIngestions;
    private final Counter dispatched;
    private final Counter completed;
    private final Counter deadLettered;
    private final Counter leasesExpired;
    private final Counter redeliveredOutcomes;
    private final Counter unknownOutcomes;
    private final Counter cancelled;
    private final Counter deleted;
    private final Counter purged;
    private final Counter requeued;
    private final Timer submitToDispatch;
    private final AttemptCounters attempts;

    public SchedulerMetrics(MeterRegistry registry, SchedulerConfig config) {
        this.registry = registry;
        this.attempts = new AttemptCounters(registry, config.metrics().attemptSeriesLimit());
        registry.gauge("jobweaver.jobs.pending", pending);
        registry.gauge("jobweaver.jobs.running", running);
        registry.gauge("jobweaver.jobs.delayed", delayed);
        this.ingested = Counters.of(registry, "jobweaver.jobs.ingested",
                "New jobs stored (PENDING, or RUNNING when dispatched as they were stored)");
        this.duplicateIngestions = Counters.of(registry, "jobweaver.jobs.ingested.duplicates",
                "Redelivered JobCreatedEvents that changed nothing");
        this.dispatched = Counters.of(registry, "jobweaver.jobs.dispatched", "Attempts dispatched to run-job");
        this.completed = Counters.of(registry, "jobweaver.jobs.completed", "Jobs that reached COMPLETED");
        this.deadLettered = Counters.of(registry, "jobweaver.jobs.dead.lettered",
                "Jobs that exhausted their retries (FAILED, dead letter published)");
        this.leasesExpired = Counters.of(registry, "jobweaver.leases.expired",
                "Attempts whose lease passed before their outcome arrived");
        this.redeliveredOutcomes = Counters.of(registry, "jobweaver.outcomes.redelivered",
                "Outcomes of an attempt already applied; the current status was re-published");
        this.unknownOutcomes = Counters.of(registry, "jobweaver.outcomes.unknown.job",
                "Outcomes for a job the scheduler does not know");
        this.cancelled = Counters.of(registry, "jobweaver.jobs.cancelled",
                "Jobs that reached CANCELLED (a cancel that came before its job counts at ingestion)");
        this.deleted = Counters.of(registry, "jobweaver.jobs.deleted",
                "Deletes of finished (or unknown) jobs applied: row removed, tombstone published");
        this.purged = Counters.of(registry, "jobweaver.jobs.purged",
                "Purges of finished (or unknown) jobs applied, their retention ended: row removed, nothing published");
        this.requeued = Counters.of(registry, "jobweaver.jobs.requeued",
                "Dead-lettered (FAILED) jobs requeued: PENDING again under their own id");
        this.submitToDispatch = Timer.builder("jobweaver.submit.to.dispatch")
                .description("From the API accepting a job to the dispatch of its first attempt")
                .publishPercentileHistogram()
                .register(registry);
    }

    /** An outcome on {@code topic} was for another attempt than the current one. */
    public void staleOutcome(String topic) {
        Counters.of(registry, "jobweaver.outcomes.stale",
                "Outcomes for an attempt other than the current one", "topic", topic).increment();
    }

    private void retryScheduled(String cause) {
        Counters.of(registry, "jobweaver.jobs.retries",
                "Retries scheduled after a failed attempt", "cause", cause).increment();
    }

    /**
     * A command changed nothing: a cancel of a finished job, a delete of a job that has not finished, a requeue of a
     * job that is not {@code FAILED} or is a workflow node's.
     */
    public void commandIgnored(String command) {
        Counters.of(registry, "jobweaver.commands.ignored",
                "Commands that changed nothing: a cancel of a finished job, a delete of an unfinished one,"
                        + " a requeue of a job that is not FAILED or is a workflow node's", "command", command)
                .increment();
    }

    public void cancelled() {
        cancelled.increment();
    }

    public void deleted() {
        deleted.increment();
    }

    public void purged() {
        purged.increment();
    }

    public void requeued() {
        requeued.increment();
    }

    public void ingested() {
        ingested.increment();
    }

    public void duplicateIngestion() {
        duplicateIngestions.increment();
    }

    /**
     * An attempt was dispatched; a first attempt also records its submit-to-dispatch latency (for a job asked to
     * start later, from that start).
     */
    public void dispatched(int attempt, Duration sinceSubmission) {
        dispatched.increment();
        if (attempt == 1 && sinceSubmission != null && !sinceSubmission.isNegative()) {
            submitToDispatch.record(sinceSubmission);
        }
    }

    /** {@code job}'s attempt succeeded: the job is COMPLETED. */
    public void completed(JobExecution job) {
        completed.increment();
        attempts.ended(job.jobType(), tenant(job), AttemptOutcome.COMPLETED);
    }

    /** {@code job}'s attempt failed (or its lease expired) with no retry left: FAILED and dead-lettered. */
    public void deadLettered(JobExecution job) {
        deadLettered.increment();
        attempts.ended(job.jobType(), tenant(job), AttemptOutcome.DEAD_LETTERED);
    }

    /**
     * {@code job}'s attempt failed and a retry is scheduled; {@code cause} is {@code failed} or
     * {@code lease_expired}.
     */
    /** A worker handed a run back unrun (no handler for its type): dispatched again, not a retry. */
    public void handedBack() {
        Counters.of(registry, "jobweaver.runs.handed.back",
                "Runs handed back unrun by a worker without a handler for their type, to be dispatched again").increment();
    }

    public void retryScheduled(JobExecution job, String cause) {
        retryScheduled(cause);
        attempts.ended(job.jobType(), tenant(job), AttemptOutcome.RETRIED);
    }

    private static String tenant(JobExecution job) {
        return job.control() == null ? dev.jobweaver.common.job.JobControl.DEFAULT_TENANT
                : job.control().tenantOrDefault();
    }

    public void leaseExpired() {
        leasesExpired.increment();
    }

    public void redeliveredOutcome() {
        redeliveredOutcomes.increment();
    }

    public void unknownOutcome() {
        unknownOutcomes.increment();
    }

    /** Sets the gauge of jobs waiting for a later start (PENDING, not due yet). */
    public void delayedJobs(long delayedJobs) {
        delayed.set(delayedJobs);
    }

    /** Sets the gauges of jobs due and waiting, and running. */
    public void activeJobs(long pendingJobs, long runningJobs) {
        pending.set(pendingJobs);
        running.set(runningJobs);
    }
}
