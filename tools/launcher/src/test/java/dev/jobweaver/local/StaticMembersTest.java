package dev.jobweaver.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.messaging.Topics;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;

class StaticMembersTest {

    private final String bootstrap = LocalStack.shared().kafkaBootstrapServers();

    /** Joins {@code group} as the static members {@code instanceIds}, then stops them without leaving, as they do. */
    private void joinAndStop(String group, String... instanceIds) {
        List<KafkaConsumer<byte[], byte[]>> consumers = new java.util.ArrayList<>();
        try {
            for (String instanceId : instanceIds) {
                Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                        ConsumerConfig.GROUP_ID_CONFIG, group, ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, instanceId,
                        ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 45_000);
                KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(),
                        new ByteArrayDeserializer());
                consumer.subscribe(List.of(Topics.RUN_JOB));
                consumers.add(consumer);
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (consumers.stream().anyMatch(c -> c.assignment().isEmpty()) && System.nanoTime() < deadline) {
                consumers.forEach(c -> c.poll(Duration.ofMillis(100)));
            }
            assertThat(consumers).as("every member holds a partition").allSatisfy(
                    c -> assertThat(c.assignment()).isNotEmpty());
        } finally {
            consumers.forEach(KafkaConsumer::close);
        }
    }

    private List<String> members(String group) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            return admin.describeConsumerGroups(List.of(group)).all().get().get(group).members().stream()
                    .map(m -> m.groupInstanceId().orElse(m.consumerId())).toList();
        }
    }

    @Test
    void theMembersOfARetiredInstanceAreRemovedAndTheOthersStay() throws Exception {
        String group = "static-members-" + UUID.randomUUID();
        joinAndStop(group, "kafka-consumer-run-job-in-1-worker-service", "kafka-consumer-run-job-in-1-worker-service-2");
        assertThat(members(group)).as("static members stay after they stop").hasSize(2);

        int removed = StaticMembers.removeInstance(bootstrap, "worker-service-2");

        assertThat(removed).isEqualTo(1);
        assertThat(members(group)).containsExactly("kafka-consumer-run-job-in-1-worker-service");
        StaticMembers.removeAll(bootstrap);
        assertThat(members(group)).isEmpty();
    }
}
