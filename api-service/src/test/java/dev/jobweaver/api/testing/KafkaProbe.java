package dev.jobweaver.api.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.eclipse.microprofile.config.ConfigProvider;

/** Plain Kafka clients against the test broker: read what the service published, publish what it consumes. */
public final class KafkaProbe implements AutoCloseable {

    private final KafkaConsumer<String, byte[]> consumer;
    private final List<ConsumerRecord<String, byte[]>> seen = new ArrayList<>();

    private KafkaProbe(KafkaConsumer<String, byte[]> consumer) {
        this.consumer = consumer;
    }

    /** The broker the service under test uses. */
    public static String bootstrapServers() {
        return ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class);
    }

    /** A consumer of every partition of {@code topic}, positioned at its current end (records from now on). */
    public static KafkaProbe atEndOf(String topic) {
        return atEndOf(bootstrapServers(), topic);
    }

    /** {@link #atEndOf(String)} on the broker at {@code bootstrapServers}. */
    public static KafkaProbe atEndOf(String bootstrapServers, String topic) {
        KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.GROUP_ID_CONFIG, "api-test-" + UUID.randomUUID(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest"),
                new StringDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                .map(p -> new TopicPartition(topic, p.partition())).toList();
        consumer.assign(partitions);
        consumer.seekToEnd(partitions);
        partitions.forEach(p -> consumer.position(p, Duration.ofSeconds(30)));
        return new KafkaProbe(consumer);
    }

    /** Polls until {@code done} holds for everything seen so far, or {@code timeout}; returns all records seen. */
    public List<ConsumerRecord<String, byte[]>> pollUntil(Predicate<List<ConsumerRecord<String, byte[]>>> done,
                                                          Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.test(seen) && System.nanoTime() < deadline) {
            consumer.poll(Duration.ofMillis(250)).forEach(seen::add);
        }
        return List.copyOf(seen);
    }

    /** Polls for {@code duration} and returns everything seen so far. */
    public List<ConsumerRecord<String, byte[]>> pollFor(Duration duration) {
        return pollUntil(records -> false, duration);
    }

    /**
     * Polls until this probe has read every record its topic held when called, and returns all records seen. What a
     * request published before it was answered is then among them: the check that an answered request sent nothing,
     * without waiting out a window.
     */
    public List<ConsumerRecord<String, byte[]>> readToEnd() {
        Map<TopicPartition, Long> ends = consumer.endOffsets(consumer.assignment(), Duration.ofSeconds(30));
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (ends.entrySet().stream().anyMatch(end -> consumer.position(end.getKey()) < end.getValue())) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("did not read " + ends + " within 30 s");
            }
            consumer.poll(Duration.ofMillis(100)).forEach(seen::add);
        }
        return List.copyOf(seen);
    }

    /** Records seen so far with key {@code key}. */
    public List<ConsumerRecord<String, byte[]>> withKey(String key) {
        return seen.stream().filter(r -> key.equals(r.key())).toList();
    }

    /**
     * The first record with key {@code key}, polling up to 20 s for one to come; an AssertionError when none does.
     */
    public ConsumerRecord<String, byte[]> first(String key) {
        pollUntil(records -> records.stream().anyMatch(r -> key.equals(r.key())), Duration.ofSeconds(20));
        return withKey(key).stream().findFirst()
                .orElseThrow(() -> new AssertionError("no record keyed " + key + " within 20 s"));
    }

    /** The value of the {@link #first} record with key {@code key}, read by {@code mapper} as {@code type}. */
    public <T> T first(String key, ObjectMapper mapper, Class<T> type) throws IOException {
        return mapper.readValue(first(key).value(), type);
    }

    /** The value of header {@code name} as text, or null. */
    public static String header(ConsumerRecord<?, ?> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    /** Sends {@code value} to {@code topic} keyed by {@code key} and waits for the acknowledgement. */
    public static void send(String topic, String key, byte[] value) {
        send(bootstrapServers(), topic, key, value);
    }

    /** {@link #send(String, String, byte[])} to the broker at {@code bootstrapServers}. */
    public static void send(String bootstrapServers, String topic, String key, byte[] value) {
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(topic, key, value)).get();
        } catch (Exception e) {
            throw new IllegalStateException("could not send to " + topic, e);
        }
    }

    /**
     * Sends every record through one producer, in order, and waits for all acknowledgements; where each landed, in the
     * order of {@code records}.
     */
    public static List<RecordMetadata> sendAll(List<ProducerRecord<String, byte[]>> records) {
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.LINGER_MS_CONFIG, 20), new StringSerializer(), new ByteArraySerializer())) {
            List<java.util.concurrent.Future<RecordMetadata>> acks = new ArrayList<>();
            records.forEach(record -> acks.add(producer.send(record)));
            List<RecordMetadata> landed = new ArrayList<>();
            for (var ack : acks) {
                landed.add(ack.get());
            }
            return landed;
        } catch (Exception e) {
            throw new IllegalStateException("could not send " + records.size() + " records", e);
        }
    }

    /** The end offset (the next offset to be written) of every partition of {@code topic}. */
    public static Map<Integer, Long> endOffsets(String topic) {
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()),
                new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            Map<Integer, Long> ends = new TreeMap<>();
            consumer.endOffsets(partitions, Duration.ofSeconds(30)).forEach((p, end) -> ends.put(p.partition(), end));
            return ends;
        }
    }

    /** The offsets consumer group {@code group} committed on {@code topic}, by partition (absent: none committed). */
    public static Map<Integer, Long> committedOffsets(String group, String topic) {
        try (Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()))) {
            Map<Integer, Long> committed = new TreeMap<>();
            admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get(30,
                    TimeUnit.SECONDS)
                    .forEach((p, offset) -> {
                        if (p.topic().equals(topic) && offset != null) {
                            committed.put(p.partition(), offset.offset());
                        }
                    });
            return committed;
        } catch (Exception e) {
            throw new IllegalStateException("could not read the offsets of " + group, e);
        }
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(5));
    }
}
