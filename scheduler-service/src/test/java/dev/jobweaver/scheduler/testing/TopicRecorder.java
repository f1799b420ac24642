package dev.jobweaver.scheduler.testing;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.awaitility.Awaitility;

/**
 * Records everything published on some topics from the moment it starts, read by a plain KafkaConsumer assigned every
 * partition at its end offset: no group to join, and none of the records earlier tests left to read again.
 */
public final class TopicRecorder implements AutoCloseable {

    private final List<ConsumerRecord<String, byte[]>> records = new CopyOnWriteArrayList<>();
    /** Per partition, the offset of the next record to record: all below it are in {@link #records}. */
    private final Map<TopicPartition, Long> positions = new ConcurrentHashMap<>();
    /** Requests for the topics' end offsets, answered by the poller, the only thread that may use the consumer. */
    private final Queue<CompletableFuture<Map<TopicPartition, Long>>> endOffsetRequests = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final Thread poller;

    private TopicRecorder(String bootstrapServers, List<String> topics) {
        KafkaConsumer<String, byte[]> consumer = fromNow(bootstrapServers, topics);
        poller = Thread.ofPlatform().daemon().name("topic-recorder").start(() -> {
            try (consumer) {
                while (!stop.get()) {
                    consumer.poll(Duration.ofMillis(100)).forEach(records::add);
                    consumer.assignment().forEach(tp -> positions.put(tp, consumer.position(tp)));
                    answerEndOffsetRequests(consumer, topics);
                }
            }
        });
    }

    private void answerEndOffsetRequests(KafkaConsumer<String, byte[]> consumer, List<String> topics) {
        CompletableFuture<Map<TopicPartition, Long>> request;
        while ((request = endOffsetRequests.poll()) != null) {
            try {
                request.complete(consumer.endOffsets(partitions(consumer, topics)));
            } catch (RuntimeException e) {
                request.completeExceptionally(e);
            }
        }
    }

    private static List<TopicPartition> partitions(KafkaConsumer<?, ?> consumer, List<String> topics) {
        return topics.stream().flatMap(topic -> consumer.partitionsFor(topic).stream()
                .map(p -> new TopicPartition(topic, p.partition()))).toList();
    }

    /**
     * A consumer of every partition of {@code topics}, from their end offsets as they are when it is made, in no group
     * and committing nothing: it reads whatever is published from then on, without a group to join first. The broker
     * answers its idle fetches within 50 ms rather than the default 500: closing the consumer waits for the fetch in
     * flight, and every test closes its own.
     */
    static KafkaConsumer<String, byte[]> fromNow(String bootstrapServers, List<String> topics) {
        KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false",
                ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "50",
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName(),
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName()));
        List<TopicPartition> partitions = partitions(consumer, topics);
        consumer.assign(partitions);
        consumer.endOffsets(partitions).forEach(consumer::seek);
        return consumer;
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
        Awaitility.await().atMost(timeout).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(50))
                .until(() -> records(topic, key).size() >= count);
        return records(topic, key);
    }

    /**
     * Returns once every record on the topics when it is called has been recorded, on every partition. A record that
     * must not exist, if the scheduler published it before a sentinel showed its input consumed (it publishes before
     * it commits), has been recorded by then.
     */
    public void awaitCaughtUp() {
        CompletableFuture<Map<TopicPartition, Long>> request = new CompletableFuture<>();
        endOffsetRequests.add(request);
        Map<TopicPartition, Long> ends;
        try {
            ends = request.get(Waits.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        } catch (ExecutionException | TimeoutException e) {
            throw new AssertionError("the recorder did not tell its topics' end offsets", e);
        }
        Awaitility.await("the recorder reaching " + ends).atMost(Waits.TIMEOUT).pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(20)).until(() -> ends.entrySet().stream()
                        .allMatch(end -> positions.getOrDefault(end.getKey(), -1L) >= end.getValue()));
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
