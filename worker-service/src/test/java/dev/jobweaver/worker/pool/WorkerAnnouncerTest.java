package dev.jobweaver.worker.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.common.event.EventRules;
import dev.jobweaver.common.event.WorkerHeartbeatEvent;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.worker.WorkerConfig;
import dev.jobweaver.worker.WorkerIdentity;
import dev.jobweaver.worker.testing.WorkerKafka;
import dev.jobweaver.worker.testing.WorkerKafkaTest;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

/** The worker announces itself on {@code worker-heartbeats}: keyed by its id, its queues, its handlers' types. */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_worker")
class WorkerAnnouncerTest extends WorkerKafkaTest {

    @Inject WorkerIdentity identity;
    @Inject WorkerConfig config;
    @Inject WorkerAnnouncer announcer;

    @Test
    void heartbeatsNameTheQueuesTheTypesAndTheCapacityUnderTheWorkersId() {
        List<JsonNode> mine = new CopyOnWriteArrayList<>();
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, WorkerKafka.bootstrap());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "test-heartbeats-" + UUID.randomUUID());
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(p, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of(Topics.WORKER_HEARTBEATS));
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    if (identity.id().equals(r.key())) {
                        mine.add(WorkerKafka.JSON.readTree(r.value()));
                    }
                }
                return !mine.isEmpty();
            });
        }
        JsonNode heartbeat = mine.getFirst();
        assertThat(heartbeat.get("workerId").asText()).isEqualTo(identity.id());
        assertThat(heartbeat.get("queues").toString()).isEqualTo("[\"default\"]");
        assertThat(heartbeat.get("types").toString()).isEqualTo("[\"HTTP\",\"SIMULATION\"]");
        assertThat(heartbeat.get("capacity").asInt()).isEqualTo(config.maxInFlight());
        assertThat(heartbeat.get("intervalMs").asLong()).isEqualTo(config.heartbeatInterval().toMillis());
        assertThat(heartbeat.get("leaving").asBoolean()).isFalse();
    }

    @Test
    void aHeartbeatNamesThePartitionsOfItsQueuesRunTopicThatThisWorkerHolds() {
        // the test platform's run-job has 3 partitions and this worker is its only consumer group member
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(announcer.heartbeat(false).partitions())
                .isEqualTo(java.util.Map.of("default", List.of(0, 1, 2))));
        assertThat(EventRules.problem(announcer.heartbeat(false))).isNull();
    }

    @Test
    void theLeavingHeartbeatEndsTheWorkersLifeAtOnceAndEveryHeartbeatKeepsTheRules() {
        WorkerHeartbeatEvent living = announcer.heartbeat(false);
        WorkerHeartbeatEvent leaving = announcer.heartbeat(true);

        assertThat(EventRules.problem(living)).isNull();
        assertThat(EventRules.problem(leaving)).isNull();
        assertThat(living.liveUntil()).isEqualTo(living.sentAt().plus(config.heartbeatInterval().multipliedBy(3)));
        assertThat(leaving.liveUntil()).isEqualTo(leaving.sentAt());
    }
}
