package dev.jobweaver.scheduler.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;

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

    /**
     * Waits until at least {@code records} more records of {@code topic} are counted than {@code before}: at least,
     * since a record an earlier test's consumer quarantined without committing is counted again.
     */
    public void awaitCountedSince(String topic, double before, int records) {
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(total(topic) - before).isGreaterThanOrEqualTo(records));
    }

    /** Records of {@code topic} quarantined so far for {@code reason} (its lower-case label). */
    public double count(String topic, String reason) {
        Counter counter = registry.find("jobweaver.quarantined").tag("topic", topic).tag("reason", reason).counter();
        return counter == null ? 0 : counter.count();
    }
}
