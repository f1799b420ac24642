package dev.jobweaver.common.observability;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class SqlClientGaugesTest {

    @Test
    void theRepeatedClientGaugesAreDroppedAndTheOtherMetersKept() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        registry.config().meterFilter(new SqlClientGauges().dropRepeatedClientGauges());
        Tags tags = Tags.of("clientName", "<default>", "clientType", "sql");
        Gauge.builder("postgresql.queue.size", () -> 1).tags(tags).register(registry);
        Gauge.builder("postgresql.queue.size", () -> 2).tags(tags).register(registry);
        Gauge.builder("postgresql.current", () -> 3).tags(tags).register(registry);
        Timer.builder("postgresql.queue.delay").tags(tags).register(registry);
        Gauge.builder("jobweaver.pending", () -> 4).register(registry);

        assertThat(registry.find("postgresql.queue.size").meters()).isEmpty();
        assertThat(registry.find("postgresql.current").meters()).isEmpty();
        assertThat(registry.find("postgresql.queue.delay").timer()).isNotNull();
        assertThat(registry.find("jobweaver.pending").gauge()).isNotNull();
    }
}
