package dev.jobweaver.testing;

import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.QuarantineHeaders;
import dev.jobweaver.local.KafkaClients;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Test access to the raw topics: produce a record exactly as given (bad ones included) and read back what the
 * services set aside in {@code jobweaver-quarantine}, by origin.
 */
public final class QuarantineTopic {

    /** Where a record was produced: its topic, partition and offset. */
    public record Position(String topic, int partition, long offset) {
    }

    private QuarantineTopic() {
    }

    /** Produces each value under its key to {@code topic}, in order; the position of each. */
    public static List<Position> produce(String bootstrap, String topic, List<PoisonCorpus.Poison> records) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Topics.QUARANTINE_MAX_MESSAGE_BYTES);
        try (KafkaProducer<String, byte[]> producer = KafkaClients.create(() -> new KafkaProducer<>(props,
                new StringSerializer(), new ByteArraySerializer()))) {
            return records.stream().map(r -> {
                try {
                    RecordMetadata meta = producer.send(new ProducerRecord<>(topic, r.key(), r.value())).get();
                    return new Position(topic, meta.partition(), meta.offset());
                } catch (Exception e) {
                    throw new IllegalStateException("could not produce '" + r.name() + "' to " + topic, e);
                }
            }).toList();
        }
    }

    /**
     * Reads the quarantine from its start until every position of {@code expected} was found or {@code timeout}
     * passed; the quarantined copies found, by the position of their original.
     */
    public static Map<Position, ConsumerRecord<String, byte[]>> awaitQuarantined(String bootstrap,
                                                                                 List<Position> expected,
                                                                                 Duration timeout) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "quarantine-reader-" + UUID.randomUUID());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, Topics.QUARANTINE_MAX_MESSAGE_BYTES);
        Map<Position, ConsumerRecord<String, byte[]>> found = new HashMap<>();
        try (KafkaConsumer<String, byte[]> consumer = KafkaClients.create(() -> new KafkaConsumer<>(props,
                new StringDeserializer(), new ByteArrayDeserializer()))) {
            consumer.subscribe(List.of(Topics.QUARANTINE));
            long deadline = System.nanoTime() + timeout.toNanos();
            while (System.nanoTime() < deadline && !found.keySet().containsAll(expected)) {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    if (header(record, QuarantineHeaders.PARTITION) == null
                            || header(record, QuarantineHeaders.OFFSET) == null) {
                        // not a copy the platform made (a test of the quarantine's own reader writes such records)
                        continue;
                    }
                    Position origin = new Position(header(record, QuarantineHeaders.TOPIC),
                            Integer.parseInt(header(record, QuarantineHeaders.PARTITION)),
                            Long.parseLong(header(record, QuarantineHeaders.OFFSET)));
                    found.put(origin, record);
                }
            }
        }
        return found;
    }

    /** The value of the last header named {@code name}, or null. */
    public static String header(ConsumerRecord<?, ?> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
