package dev.jobweaver.scheduler.observability;

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
    private final Counter requeued;
    private final Timer submitToDispatch;
    private final AttemptCounters attempts;

    public SchedulerMetrics(MeterRegistry registry, SchedulerConfig config) {
        this.registry = registry;
        this.attempts = new AttemptCounters(registry, config.metrics().attemptSeriesLimit());
        registry.gauge("jobweaver.jobs.pending", pending);
        registry.gauge("jobweaver.jobs.running", running);
        registry.gauge("jobweaver.jobs.delayed", delayed);
        this.ingested = Counter.builder("jobweaver.jobs.ingested")
                .description("New jobs stored (PENDING, or RUNNING when dispatched as they were stored)")
                .register(registry);
        this.duplicateIngestions = Counter.builder("jobweaver.jobs.ingested.duplicates")
                .description("Redelivered JobCreatedEvents that changed nothing").register(registry);
        this.dispatched = Counter.builder("jobweaver.jobs.dispatched").description("Attempts dispatched to run-job")
                .register(registry);
        this.completed = Counter.builder("jobweaver.jobs.completed").description("Jobs that reached COMPLETED")
                .register(registry);
        this.deadLettered = Counter.builder("jobweaver.jobs.dead.lettered")
                .description("Jobs that exhausted their retries (FAILED, dead letter published)").register(registry);
        this.leasesExpired = Counter.builder("jobweaver.leases.expired")
                .description("Attempts whose lease passed before their outcome arrived").register(registry);
        this.redeliveredOutcomes = Counter.builder("jobweaver.outcomes.redelivered")
                .description("Outcomes of an attempt already applied; the current status was re-published")
                .register(registry);
        this.unknownOutcomes = Counter.builder("jobweaver.outcomes.unknown.job")
                .description("Outcomes for a job the scheduler does not know").register(registry);
        this.cancelled = Counter.builder("jobweaver.jobs.cancelled")
                .description("Jobs that reached CANCELLED (a cancel that came before its job counts at ingestion)")
                .register(registry);
        this.deleted = Counter.builder("jobweaver.jobs.deleted")
                .description("Deletes of finished (or unknown) jobs applied: row removed, tombstone published")
                .register(registry);
        this.requeued = Counter.builder("jobweaver.jobs.requeued")
                .description("Dead-lettered (FAILED) jobs requeued: PENDING again under their own id")
                .register(registry);
        this.submitToDispatch = Timer.builder("jobweaver.submit.to.dispatch")
                .description("From the API accepting a job to the dispatch of its first attempt")
                .publishPercentileHistogram()
                .register(registry);
    }

    /** An outcome on {@code topic} was for another attempt than the current one. */
    public void staleOutcome(String topic) {
        Counter.builder("jobweaver.outcomes.stale").description("Outcomes for an attempt other than the current one")
                .tag("topic", topic).register(registry).increment();
    }

    private void retryScheduled(String cause) {
        Counter.builder("jobweaver.jobs.retries").description("Retries scheduled after a failed attempt")
                .tag("cause", cause).register(registry).increment();
    }

    /**
     * A command changed nothing: a cancel of a finished job, a delete of a job that has not finished, a requeue of a
     * job that is not {@code FAILED} or is a workflow node's.
     */
    public void commandIgnored(String command) {
        Counter.builder("jobweaver.commands.ignored")
                .description("Commands that changed nothing: a cancel of a finished job, a delete of an unfinished one,"
                        + " a requeue of a job that is not FAILED or is a workflow node's")
                .tag("command", command).register(registry).increment();
    }

    public void cancelled() {
        cancelled.increment();
    }

    public void deleted() {
        deleted.increment();
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
