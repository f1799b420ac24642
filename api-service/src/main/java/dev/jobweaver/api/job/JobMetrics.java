package dev.jobweaver.api.job;

import dev.jobweaver.api.job.outbox.OutboxBacklog;
import dev.jobweaver.api.platform.http.HttpMetrics;
import dev.jobweaver.common.job.JobCommand;
import dev.jobweaver.common.metrics.Counters;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/** The API's business metrics, exported at {@code /q/metrics} with the {@code jobweaver_} prefix. */
@ApplicationScoped
public class JobMetrics implements HttpMetrics {

    private final MeterRegistry registry;
    private final Counter submitted;
    private final Counter backlogged;
    private final Counter idempotentReplays;
    private final Counter relayFailed;
    private final Counter overloaded;
    private final Counter sweptPublished;
    private final Counter statusApplied;
    private final Counter statusStale;
    private final DistributionSummary submissionGroups;
    private final Map<JobCommand, Counter> commands = new EnumMap<>(JobCommand.class);
    private final AtomicLong statusHeld = new AtomicLong();

    public JobMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.submitted = Counters.of(registry, "jobweaver.jobs.submitted",
                "Jobs accepted: committed with their outbox row (202)");
        this.idempotentReplays = Counters.of(registry, "jobweaver.submissions.idempotent.replays",
                "Submissions answered with the first answer of their Idempotency-Key (no new job)");
        this.backlogged = Counters.of(registry, "jobweaver.submissions.backlogged",
                "Submissions answered 503 because the unpublished outbox was over its bound");
        this.relayFailed = Counters.of(registry, "jobweaver.outbox.relay.failures",
                "job-created events Kafka did not take; their rows stay for the sweeper");
        this.overloaded = Counters.of(registry, "jobweaver.submissions.overloaded",
                "Submissions answered 503 API.OVERLOADED, unread: too many body bytes in flight");
        this.sweptPublished = Counters.of(registry, "jobweaver.outbox.published",
                "Outbox rows published by the sweeper (the relay gave up on them, or a dead instance left them)");
        this.statusApplied = Counters.of(registry, "jobweaver.status.events",
                "job-status events applied to the read model", "result", "applied");
        this.statusStale = Counters.of(registry, "jobweaver.status.events",
                "job-status events ignored: older than the job's state or unknown job", "result", "stale");
        this.submissionGroups = DistributionSummary.builder("jobweaver.submission.group.size")
                .description("Submissions stored and published together as one group (group commit)")
                .register(registry);
        for (JobCommand command : JobCommand.values()) {
            commands.put(command, Counters.of(registry, "jobweaver.job.commands",
                    "Cancels, deletes, requeues and purges of jobs accepted: their command acknowledged by Kafka",
                    "command", command.name().toLowerCase(Locale.ROOT)));
        }
        Gauge.builder("jobweaver.status.held", statusHeld, AtomicLong::get)
                .description("job-status events held back from the read model for a newer status of their job")
                .register(registry);
    }

    public void submitted() {
        submitted.increment();
    }

    public void submitted(int count) {
        submitted.increment(count);
    }

    /** A group of {@code size} submissions was stored with one statement. */
    public void submissionGroup(int size) {
        submissionGroups.record(size);
    }

    /** A submission answered with the first answer of its Idempotency-Key. */
    public void idempotentReplay() {
        idempotentReplays.increment();
    }

    /** A submission refused because the unpublished outbox is over its bound. */
    public void backlogged() {
        backlogged.increment();
    }

    /** The relay could not publish {@code count} events. */
    public void relayFailed(int count) {
        relayFailed.increment(count);
    }

    /** Registers the outbox backlog's gauges. */
    public void outboxBacklog(OutboxBacklog backlog) {
        Gauge.builder("jobweaver.outbox.backlog.jobs", backlog, OutboxBacklog::jobs)
                .description("Jobs committed whose events Kafka has not acknowledged yet (all instances; measured every"
                        + " jobweaver.api.outbox.backlog-refresh)").register(registry);
        Gauge.builder("jobweaver.outbox.backlog.bytes", backlog, OutboxBacklog::bytes)
                .description("Bytes of those events").baseUnit("bytes").register(registry);
        Gauge.builder("jobweaver.outbox.backlog.age", backlog, b -> b.oldestAge().toMillis() / 1000.0)
                .description("How long the oldest of them has waited").baseUnit("seconds").register(registry);
    }

    /** A submission refused unread because the budget of bytes in flight was spent. */
    @Override
    public void overloaded() {
        overloaded.increment();
    }

    /** A cancel, delete or requeue was accepted: Kafka acknowledged its command (and a delete's rows are gone). */
    public void commandAccepted(JobCommand command) {
        commands.get(command).increment();
    }

    /** {@code count} jobs' commands were accepted at once (the retention purge's). */
    public void commandsAccepted(JobCommand command, int count) {
        commands.get(command).increment(count);
    }

    public void sweptPublished(int count) {
        sweptPublished.increment(count);
    }

    public void statusApplied(int count) {
        statusApplied.increment(count);
    }

    public void statusStale(int count) {
        statusStale.increment(count);
    }

    /** How many non-terminal job-status events are held back now. */
    public void statusHeld(int held) {
        statusHeld.set(held);
    }

    @Override
    public void validationFailure(String reason) {
        validationFailure(reason, 1);
    }

    private void validationFailure(String reason, double amount) {
        Counters.of(registry, "jobweaver.validation.failures",
                "Requests refused as invalid (4xx)", "errorCode", reason).increment(amount);
    }
}
