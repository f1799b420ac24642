package dev.jobweaver.scheduler.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** A plain KafkaProducer that waits for the broker's ack of every record, so tests know it is on the topic. */
public final class TestProducer implements AutoCloseable {

    private final KafkaProducer<String, byte[]> producer;
    private final ObjectMapper mapper;

    public TestProducer(String bootstrapServers, ObjectMapper mapper) {
        this.mapper = mapper;
        this.producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName()));
    }

    /** Sends {@code value} as JSON, keyed {@code key}. */
    public void sendJson(String topic, Object key, Object value) {
        try {
            send(topic, key, mapper.writeValueAsBytes(value), Map.of());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Sends raw bytes, keyed {@code key}, with headers. */
    public void send(String topic, Object key, byte[] value, Map<String, String> headers) {
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(topic, String.valueOf(key), value);
        headers.forEach((k, v) -> record.headers().add(k, v.getBytes(StandardCharsets.UTF_8)));
        try {
            producer.send(record).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("could not produce to " + topic, e);
        }
    }

    /**
     * Sends {@code values} (JSON, keyed {@code keys} in the same order) to one partition of {@code topic} in one
     * produce request: the broker appends them as one batch, so one poll of the consumer gets them all. Their offsets,
     * in order.
     */
    public List<Long> sendTogether(String topic, int partition, List<?> keys, List<?> values) {
        try {
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            for (int i = 0; i < values.size(); i++) {
                sent.add(producer.send(new ProducerRecord<>(topic, partition, String.valueOf(keys.get(i)),
                        mapper.writeValueAsBytes(values.get(i)))));
            }
            producer.flush();
            List<Long> offsets = new ArrayList<>();
            for (Future<RecordMetadata> future : sent) {
                offsets.add(future.get(30, TimeUnit.SECONDS).offset());
            }
            return offsets;
        } catch (Exception e) {
            throw new IllegalStateException("could not produce to " + topic, e);
        }
    }

    /** Sends raw bytes (null: a tombstone), keyed {@code key}, to one partition of {@code topic}; its offset. */
    public long sendRaw(String topic, int partition, String key, byte[] value) {
        try {
            return producer.send(new ProducerRecord<>(topic, partition, key, value)).get(30, TimeUnit.SECONDS).offset();
        } catch (Exception e) {
            throw new IllegalStateException("could not produce to " + topic, e);
        }
    }

    @Override
    public void close() {
        producer.close();
    }
}
