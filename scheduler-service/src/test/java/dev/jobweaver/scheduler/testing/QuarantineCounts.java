package dev.jobweaver.scheduler.testing;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;

/** Reads {@code jobweaver_quarantined_total} as the service exposes it, by origin topic. */
@ApplicationScoped
public class QuarantineCounts {

    private final MeterRegistry registry;

    public QuarantineCounts(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Records of {@code topic} quarantined so far, whatever the reason. */
    public double total(String topic) {
        return registry.find("jobweaver.quarantined").tag("topic", topic).counters().stream()
                .mapToDouble(Counter::count).sum();
    }

    /** Records of {@code topic} quarantined so far for {@code reason} (its lower-case label). */
    public double count(String topic, String reason) {
        Counter counter = registry.find("jobweaver.quarantined").tag("topic", topic).tag("reason", reason).counter();
        return counter == null ? 0 : counter.count();
    }
}
