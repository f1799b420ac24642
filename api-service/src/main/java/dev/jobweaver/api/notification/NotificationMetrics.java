package dev.jobweaver.api.notification;

import dev.jobweaver.common.metrics.Counters;
import dev.jobweaver.common.quarantine.QuarantineReason;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.function.Supplier;

/** The metrics of webhook deliveries, exported at {@code /q/metrics} with the {@code jobweaver_} prefix. */
@ApplicationScoped
public class NotificationMetrics {

    private final MeterRegistry registry;
    private final Counter delivered;
    private final Counter failed;
    private final Counter givenUp;
    private final Timer latency;

    public NotificationMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.delivered = outcome("delivered", "Webhook deliveries answered 2xx");
        this.failed = outcome("failed", "Webhook attempts that failed and will be retried (status, timeout, refusal)");
        this.givenUp = outcome("given-up", "Webhook deliveries given up after give-up-after");
        this.latency = Timer.builder("jobweaver.webhook.delivery.latency")
                .description("From the job's change (the status's changedAt) to its successful delivery")
                .publishPercentiles(0.5, 0.95, 0.99)
                .register(registry);
    }

    private Counter outcome(String outcome, String description) {
        return Counters.of(registry, "jobweaver.webhook.deliveries", description, "outcome", outcome);
    }

    /** The in-flight gauge, read from the sender. */
    public void inFlight(Supplier<Number> sending) {
        Gauge.builder("jobweaver.webhook.deliveries.in.flight", sending, s -> s.get().doubleValue())
                .description("Webhook deliveries being sent by this instance").register(registry);
    }

    public void delivered(Duration sinceChange) {
        delivered.increment();
        latency.record(sinceChange.isNegative() ? Duration.ZERO : sinceChange);
    }

    public void failed() {
        failed.increment();
    }

    public void givenUp() {
        givenUp.increment();
    }

    /** The notifications consumer set a job-status record aside in jobweaver-quarantine. */
    public void quarantined(QuarantineReason reason) {
        registry.counter("jobweaver.webhook.quarantined", "reason", reason.label()).increment();
    }

    /** How many job-status records the notifications consumer set aside for {@code reason} (for tests). */
    public double quarantinedCount(QuarantineReason reason) {
        return registry.counter("jobweaver.webhook.quarantined", "reason", reason.label()).count();
    }
}
