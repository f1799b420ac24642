package dev.jobweaver.common.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class StaticMembershipTest {

    private static Map<String, Object> consumer(String clientId) {
        Map<String, Object> config = new HashMap<>();
        config.put("group.id", "jobweaver-workers");
        config.put("key.deserializer", "org.apache.kafka.common.serialization.StringDeserializer");
        config.put("client.id", clientId);
        return config;
    }

    @Test
    void eachConsumerOfANamedProcessGetsItsOwnStableInstanceId() {
        StaticMembership membership = new StaticMembership(Optional.of("worker-2"));
        Map<String, Object> first = membership.customize("run-job-in", null, consumer("kafka-consumer-run-job-in-0"));
        Map<String, Object> second = membership.customize("run-job-in", null, consumer("kafka-consumer-run-job-in-1"));
        assertThat(first).containsEntry("group.instance.id", "kafka-consumer-run-job-in-0-worker-2");
        assertThat(second).containsEntry("group.instance.id", "kafka-consumer-run-job-in-1-worker-2");
    }

    @Test
    void theFirstConsumerOfEveryReplicaSortsBeforeTheSecondOfAny() {
        // The range assignor gives partitions in the order of the instance ids.
        StaticMembership first = new StaticMembership(Optional.of("worker-service"));
        StaticMembership second = new StaticMembership(Optional.of("worker-service-2"));
        java.util.List<String> ids = new java.util.ArrayList<>();
        for (String client : java.util.List.of("kafka-consumer-run-job-in-1", "kafka-consumer-run-job-in-2")) {
            ids.add((String) first.customize("c", null, consumer(client)).get("group.instance.id"));
            ids.add((String) second.customize("c", null, consumer(client)).get("group.instance.id"));
        }
        java.util.Collections.sort(ids);
        assertThat(ids.subList(0, 2)).allSatisfy(id -> assertThat(id).startsWith("kafka-consumer-run-job-in-1-"));
    }

    @Test
    void charactersKafkaRefusesInAnInstanceIdAreReplaced() {
        // SmallRye names the copies of a `concurrency` channel run-job-in$1, run-job-in$2, ...
        Map<String, Object> config = new StaticMembership(Optional.of("worker service/2"))
                .customize("run-job-in$1", null, consumer("kafka-consumer-run-job-in$1"));
        assertThat(config).containsEntry("group.instance.id", "kafka-consumer-run-job-in-1-worker-service-2");
    }

    @Test
    void aProcessWithoutANameKeepsDynamicMembership() {
        assertThat(new StaticMembership(Optional.empty()).customize("c", null, consumer("x")))
                .doesNotContainKey("group.instance.id");
        assertThat(new StaticMembership(Optional.of("  ")).customize("c", null, consumer("x")))
                .doesNotContainKey("group.instance.id");
    }

    @Test
    void producersAndExplicitIdsAreLeftAlone() {
        StaticMembership membership = new StaticMembership(Optional.of("api"));
        Map<String, Object> producer = new HashMap<>(Map.of("key.serializer", "x", "client.id", "p"));
        assertThat(membership.customize("out", null, producer)).doesNotContainKey("group.instance.id");
        Map<String, Object> explicit = consumer("c");
        explicit.put("group.instance.id", "mine");
        assertThat(membership.customize("in", null, explicit)).containsEntry("group.instance.id", "mine");
    }
}
