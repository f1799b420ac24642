package dev.jobweaver.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.messaging.Topics;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Topics are created by a Job with the partition counts of the contract (common's Topics), the broker never
 * creates them, and every service waits for them before starting.
 */
class KafkaTopicsTest {

    @ParameterizedTest
    @EnumSource(Overlay.class)
    void theTopicListMatchesTheContractWithAtLeastItsPartitions(Overlay overlay) {
        List<Topics.TopicSpec> declared = declaredTopics(overlay);
        assertThat(declared).extracting(t -> t.withPartitions(0))
                .containsExactlyElementsOf(Topics.ALL.stream().map(t -> t.withPartitions(0)).toList());
        for (Topics.TopicSpec topic : declared) {
            assertThat(topic.partitions()).as("partitions of %s", topic.name())
                    .isGreaterThanOrEqualTo(Topics.named(topic.name()).partitions());
        }
    }

    @ParameterizedTest
    @EnumSource(value = Overlay.class, names = {"BASE", "DEV", "DEV_JVM"})
    void outsideProdTheTopicsHaveTheContractsDefaults(Overlay overlay) {
        assertThat(declaredTopics(overlay)).containsExactlyElementsOf(Topics.ALL);
    }

    @ParameterizedTest
    @EnumSource(value = Overlay.class, mode = EnumSource.Mode.EXCLUDE, names = "PROD_OPERATORS")
    void aJobCreatesTheTopicsFromThatList(Overlay overlay) {
        Job job = overlay.get(Job.class, "jobweaver-create-topics");
        Container container = job.getSpec().getTemplate().getSpec().getContainers().getFirst();
        assertThat(container.getCommand()).contains("/scripts/create-topics.sh");
        assertThat(overlay.literalEnvironment(container)).containsKeys("TOPICS", "KAFKA_BOOTSTRAP_SERVERS",
                "TOPIC_REPLICATION_FACTOR");
        assertThat(job.getSpec().getBackoffLimit()).isPositive();
        assertThat(job.getSpec().getActiveDeadlineSeconds()).as("a Job that cannot reach Kafka ends").isNotNull();
    }

    @ParameterizedTest
    @EnumSource(value = Overlay.class, mode = EnumSource.Mode.EXCLUDE, names = "PROD_OPERATORS")
    void everyServiceWaitsForTheTopicsBeforeStarting(Overlay overlay) {
        for (Overlay.Workload workload : overlay.serviceWorkloads()) {
            assertThat(workload.pod().getInitContainers()).as("init containers of %s", workload).anySatisfy(init -> {
                assertThat(init.getCommand()).contains("/scripts/wait-for-topics.sh");
                Map<String, String> env = overlay.literalEnvironment(init);
                assertThat(env.get("TOPICS")).isEqualTo(overlay.configMap("jobweaver-topics").getData().get("TOPICS"));
                assertThat(env.get("KAFKA_BOOTSTRAP_SERVERS"))
                        .isEqualTo(overlay.literalEnvironment(workload.mainContainer()).get("KAFKA_BOOTSTRAP_SERVERS"));
            });
        }
    }

    @Test
    void devRunsOneKraftBrokerThatNeverCreatesTopics() {
        Overlay.Workload kafka = Overlay.DEV.workload("kafka");
        assertThat(kafka.kind()).isEqualTo("StatefulSet");
        assertThat(kafka.replicas()).isEqualTo(1);
        assertThat(kafka.mainContainer().getImage()).startsWith("apache/kafka:");
        assertThat(kafka.pod().getEnableServiceLinks()).as("KAFKA_* service-link variables would become broker properties")
                .isFalse();
        Map<String, String> env = Overlay.DEV.literalEnvironment(kafka.mainContainer());
        assertThat(env).containsEntry("KAFKA_AUTO_CREATE_TOPICS_ENABLE", "false")
                .containsEntry("KAFKA_PROCESS_ROLES", "broker,controller")
                .containsEntry("KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR", "1")
                .containsKey("CLUSTER_ID")
                .doesNotContainKey("KAFKA_ZOOKEEPER_CONNECT");
        assertThat(env.get("KAFKA_ADVERTISED_LISTENERS")).isEqualTo("PLAINTEXT://"
                + Overlay.DEV.literalEnvironment(Overlay.DEV.workload("api-service").mainContainer()).get("KAFKA_BOOTSTRAP_SERVERS"));
        assertThat(env.get("KAFKA_LOG_DIRS")).startsWith(kafka.mainContainer().getVolumeMounts().getFirst().getMountPath() + "/");
    }

    @Test
    void prodReplicatesEveryPartitionAndRequiresInSyncCopies() {
        Map<String, String> topics = Overlay.PROD.configMap("jobweaver-topics").getData();
        int replication = Integer.parseInt(topics.get("TOPIC_REPLICATION_FACTOR"));
        int minInSync = Integer.parseInt(topics.get("TOPIC_MIN_INSYNC_REPLICAS"));
        assertThat(replication).isGreaterThanOrEqualTo(3);
        assertThat(minInSync).isGreaterThanOrEqualTo(2).isLessThan(replication);
    }

    /**
     * The overlay's KafkaTopics when it has them (prod-operators), in the contract's order (kustomize renders them by
     * name), else its TOPICS list.
     */
    static List<Topics.TopicSpec> declaredTopics(Overlay overlay) {
        List<GenericKubernetesResource> kafkaTopics = overlay.customResources("KafkaTopic");
        List<String> order = Topics.ALL.stream().map(Topics.TopicSpec::name).toList();
        return kafkaTopics.isEmpty() ? topicList(overlay) : kafkaTopics.stream().map(KafkaTopicsTest::topicSpec)
                .sorted(Comparator.comparingInt(topic -> order.contains(topic.name())
                        ? order.indexOf(topic.name()) : order.size()))
                .toList();
    }

    /** A KafkaTopic as a topic of the contract: compacted when its cleanup policy compacts. */
    static Topics.TopicSpec topicSpec(GenericKubernetesResource topic) {
        Map<String, Object> spec = topic.get("spec");
        Map<String, Object> config = topic.get("spec", "config");
        Object maxBytes = config.get("max.message.bytes");
        return new Topics.TopicSpec(topic.getMetadata().getName(), (Integer) spec.get("partitions"),
                String.valueOf(config.get("cleanup.policy")).contains("compact"),
                maxBytes == null ? 0 : ((Number) maxBytes).intValue());
    }

    /** Parses TOPICS ("name:partitions[:compact][:max-bytes=N] ..."). */
    static List<Topics.TopicSpec> topicList(Overlay overlay) {
        String topics = overlay.configMap("jobweaver-topics").getData().get("TOPICS");
        return Arrays.stream(topics.trim().split("\\s+")).map(spec -> {
            String[] parts = spec.split(":");
            boolean compact = false;
            int maxBytes = 0;
            for (int i = 2; i < parts.length; i++) {
                if (parts[i].equals("compact")) {
                    compact = true;
                } else if (parts[i].startsWith("max-bytes=")) {
                    maxBytes = Integer.parseInt(parts[i].substring("max-bytes=".length()));
                } else {
                    throw new IllegalArgumentException("unknown topic option " + parts[i] + " in " + spec);
                }
            }
            return new Topics.TopicSpec(parts[0], Integer.parseInt(parts[1]), compact, maxBytes);
        }).toList();
    }
}
