package dev.jobweaver.worker.offsets;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.TopicPartition;

/** Prometheus metrics of the out-of-order commit strategy, per partition where it matters. */
@ApplicationScoped
class OffsetMetrics {

    @Inject MeterRegistry registry;
    private final Map<TopicPartition, PartitionGauges> gauges = new ConcurrentHashMap<>();

    /** The gauges of one partition; they read 0 while another worker owns it. */
    private record PartitionGauges(AtomicLong lag, AtomicLong stuck, AtomicLong committed, AtomicLong stalled) {
    }

    /** Updates the gauges of {@code tp} from its bookkeeping. */
    void update(TopicPartition tp, long uncommittedLag, int stuckOffsets, long committedOffset) {
        PartitionGauges g = gauges.computeIfAbsent(tp, this::register);
        g.lag().set(uncommittedLag);
        g.stuck().set(stuckOffsets);
        g.committed().set(committedOffset);
    }

    /** Whether the connector stopped delivering {@code tp}'s records (see {@link DeliveryWatch}). */
    void deliveryStalled(TopicPartition tp, boolean stalled) {
        gauges.computeIfAbsent(tp, this::register).stalled().set(stalled ? 1 : 0);
    }

    /** The partition moved to another worker: its gauges no longer describe this one. */
    void forget(TopicPartition tp) {
        PartitionGauges g = gauges.get(tp);
        if (g != null) {
            g.lag().set(0);
            g.stuck().set(0);
            g.stalled().set(0);
        }
    }

    void committed(String topic, boolean success) {
        Counter.builder("jobweaver.worker.offset.commits")
                .description("Offset commits of the out-of-order strategy, by result")
                .tags("topic", topic, "result", success ? "success" : "failure")
                .register(registry).increment();
    }

    void skipped(String topic, String reason) {
        Counter.builder("jobweaver.worker.skipped.records")
                .description("Records acknowledged without running because they had completed already")
                .tags("topic", topic, "reason", reason)
                .register(registry).increment();
    }

    void stuckDetected(String topic) {
        Counter.builder("jobweaver.worker.stuck.offsets.detected")
                .description("Offsets found in flight for longer than the stuck threshold")
                .tags("topic", topic)
                .register(registry).increment();
    }

    void metadataDropped(String topic, int dropped) {
        Counter.builder("jobweaver.worker.offset.metadata.dropped")
                .description("Completed offsets left out of commit metadata because of its size bound")
                .tags("topic", topic)
                .register(registry).increment(dropped);
    }

    private PartitionGauges register(TopicPartition tp) {
        PartitionGauges g = new PartitionGauges(new AtomicLong(), new AtomicLong(), new AtomicLong(-1),
                new AtomicLong());
        Tags tags = Tags.of("topic", tp.topic(), "partition", Integer.toString(tp.partition()));
        gauge("jobweaver.worker.committed.offset.lag", g.lag(), tags,
                "Records received but not yet covered by the committed offset");
        gauge("jobweaver.worker.stuck.offsets", g.stuck(), tags,
                "Offsets in flight for longer than the stuck threshold");
        gauge("jobweaver.worker.committed.offset", g.committed(), tags, "The offset last committed by this worker");
        gauge("jobweaver.worker.delivery.stalled", g.stalled(), tags,
                "1 while the partition is paused with records waiting, free run slots and nothing received");
        return g;
    }

    private void gauge(String name, AtomicLong value, Tags tags, String description) {
        Gauge.builder(name, value, AtomicLong::get).description(description).tags(tags).register(registry);
    }
}
