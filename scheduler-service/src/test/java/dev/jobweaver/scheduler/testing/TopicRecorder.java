package dev.jobweaver.scheduler.testing;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.awaitility.Awaitility;

/** Records everything published on some topics, read by a plain KafkaConsumer with a fresh group from the start. */
public final class TopicRecorder implements AutoCloseable {

    private final List<ConsumerRecord<String, byte[]>> records = new CopyOnWriteArrayList<>();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final Thread poller;

    private TopicRecorder(String bootstrapServers, List<String> topics) {
        KafkaConsumer<String, byte[]> consumer = fromTheStart(bootstrapServers, "scheduler-test-");
        consumer.subscribe(topics);
        poller = Thread.ofPlatform().daemon().name("topic-recorder").start(() -> {
            try (consumer) {
                while (!stop.get()) {
                    consumer.poll(Duration.ofMillis(100)).forEach(records::add);
                }
            }
        });
    }

    /**
     * A consumer in a group of its own ({@code groupPrefix} and a random id) that reads from the start of its topics
     * and commits nothing, so that it sees every record whatever other tests consumed.
     */
    static KafkaConsumer<String, byte[]> fromTheStart(String bootstrapServers, String groupPrefix) {
        return new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.GROUP_ID_CONFIG, groupPrefix + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false",
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName(),
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName()));
    }

    /** Starts recording {@code topics}. */
    public static TopicRecorder start(String bootstrapServers, String... topics) {
        return new TopicRecorder(bootstrapServers, List.of(topics));
    }

    /** Records of {@code topic} keyed {@code key}, in offset order per partition. */
    public List<ConsumerRecord<String, byte[]>> records(String topic, Object key) {
        String k = String.valueOf(key);
        return records.stream().filter(r -> r.topic().equals(topic) && k.equals(r.key())).toList();
    }

    /** Waits until {@code topic} holds at least {@code count} records keyed {@code key}; returns them all. */
    public List<ConsumerRecord<String, byte[]>> await(String topic, Object key, int count) {
        return await(topic, key, count, Duration.ofSeconds(30));
    }

    /** Waits until {@code topic} holds at least {@code count} records keyed {@code key}; returns them all. */
    public List<ConsumerRecord<String, byte[]>> await(String topic, Object key, int count, Duration timeout) {
        Awaitility.await().atMost(timeout).pollInterval(Duration.ofMillis(50))
                .until(() -> records(topic, key).size() >= count);
        return records(topic, key);
    }

    /** The value of header {@code name}, or null. */
    public static String header(ConsumerRecord<?, ?> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws InterruptedException {
        stop.set(true);
        poller.join(5_000);
    }
}
