package dev.jobweaver.api.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** The producer timeouts always give a definitive answer within the relay's delivery timeout, and Kafka accepts them. */
class PublishTimingsTest {

    @ParameterizedTest
    @ValueSource(longs = {2_000, 5_000, 7_777, 30_000})
    void everyCallbackArrivesWithinTheDeliveryTimeout(long totalMs) {
        PublishTimings t = PublishTimings.of(Duration.ofMillis(totalMs));

        assertThat(t.handoff().plus(t.maxBlock()).plus(t.deliveryTimeout()).toMillis()).isLessThanOrEqualTo(totalMs);
        // Kafka requires delivery.timeout.ms >= linger.ms (a few ms) + request.timeout.ms
        assertThat(t.deliveryTimeout()).isGreaterThanOrEqualTo(t.requestTimeout().plusMillis(100));
        assertThat(t.callerWait().toMillis()).isGreaterThan(totalMs);
    }

    @Test
    void producerConfigIsAcceptedByKafkaAndKeepsAcksAllAndIdempotence() {
        PublishTimings t = PublishTimings.of(Duration.ofSeconds(5));
        Map<String, Object> config = JobCreatedPublisher.producerConfig(
                Map.of("bootstrap.servers", "127.0.0.1:1", "acks", "1", "not.a.kafka.key", "x"), t,
                Duration.ofMillis(5));

        assertThat(config).containsEntry(ProducerConfig.ACKS_CONFIG, "all")
                .containsEntry(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true)
                .containsEntry(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 3500)
                .containsEntry(ProducerConfig.MAX_BLOCK_MS_CONFIG, 1000L)
                .containsEntry(ProducerConfig.LINGER_MS_CONFIG, 5)
                .containsKey(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG)
                .doesNotContainKey("not.a.kafka.key");
        // constructing the producer validates the combination (delivery >= linger + request timeout, ...)
        try (var producer = new org.apache.kafka.clients.producer.KafkaProducer<>(config,
                new org.apache.kafka.common.serialization.StringSerializer(),
                new org.apache.kafka.common.serialization.StringSerializer())) {
            assertThat(producer.metrics()).isNotEmpty();
        }
    }

    @Test
    void tooShortATimeoutIsRefused() {
        assertThatThrownBy(() -> PublishTimings.of(Duration.ofMillis(500)))
                .hasMessageContaining("delivery-timeout");
    }
}
