package dev.jobweaver.api.job.service;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.atomic.AtomicLong;

/** The API's business metrics, exported at {@code /q/metrics} with the {@code jobweaver_} prefix. */
@ApplicationScoped
public class JobMetrics {

    private final MeterRegistry registry;
    private final Counter submitted;
    private final Counter rejected;
    private final Counter overloaded;
    private final Counter sweptPublished;
    private final Counter statusApplied;
    private final Counter statusStale;
    private final DistributionSummary submissionGroups;
    private final AtomicLong outboxDepth = new AtomicLong();
    private final AtomicLong statusHeld = new AtomicLong();

    public JobMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.submitted = Counter.builder("jobweaver.jobs.submitted")
                .description("Jobs accepted: stored and acknowledged by Kafka (202)").register(registry);
        this.rejected = Counter.builder("jobweaver.jobs.rejected")
                .description("Submissions answered 503 because Kafka did not take the event").register(registry);
        this.overloaded = Counter.builder("jobweaver.submissions.overloaded")
                .description("Submissions answered 503 API.OVERLOADED, unread: too many body bytes in flight")
                .register(registry);
        this.sweptPublished = Counter.builder("jobweaver.outbox.published")
                .description("Outbox rows published by the sweeper (left behind by a crashed request)")
                .register(registry);
        this.statusApplied = Counter.builder("jobweaver.status.events")
                .tag("result", "applied").description("job-status events applied to the read model")
                .register(registry);
        this.statusStale = Counter.builder("jobweaver.status.events")
                .tag("result", "stale").description("job-status events ignored: older than the job's state or unknown job")
                .register(registry);
        this.submissionGroups = DistributionSummary.builder("jobweaver.submission.group.size")
                .description("Submissions stored and published together as one group (group commit)")
                .register(registry);
        Gauge.builder("jobweaver.outbox.depth", outboxDepth, AtomicLong::get)
                .description("Outbox rows not yet deleted, as of the last sweep: waiting for Kafka, or acknowledged"
                        + " within the last jobweaver.api.outbox.delete-delay").register(registry);
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

    public void rejected() {
        rejected.increment();
    }

    /** A submission refused unread because the budget of bytes in flight was spent. */
    public void overloaded() {
        overloaded.increment();
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

    public void outboxDepth(long depth) {
        outboxDepth.set(depth);
    }

    /** A request refused with a 4xx; {@code reason} is the error code (bounded cardinality). */
    public void validationFailure(String reason) {
        validationFailure(reason, 1);
    }

    private void validationFailure(String reason, double amount) {
        Counter.builder("jobweaver.validation.failures").tag("errorCode", reason)
                .description("Requests refused as invalid (4xx)").register(registry).increment(amount);
    }
}
