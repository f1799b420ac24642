package dev.jobweaver.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.messaging.Topics;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Scale-out: prod gives the topics between the services 12 partitions or more, no service that shares a topic in a
 * consumer group runs more replicas than the topic has partitions (a replica beyond them gets none), the workers may
 * grow to 12, and the consumers each replica runs all hold a partition at the fewest replicas.
 *
 * <p>The API is left out of the replica bound on purpose: its replicas serve HTTP, and one beyond job-status's
 * partitions still does; only its read-model consumer sits idle.
 */
class ScaleOutTest {

    /** The topics between the services: what prod gives 12 partitions or more. */
    static final List<String> BETWEEN_SERVICES = List.of(Topics.JOB_CREATED, Topics.RUN_JOB, Topics.JOB_COMPLETED,
            Topics.JOB_FAILED, Topics.JOB_STATUS);

    /** Per service, each topic its replicas share in one consumer group and the channel that consumes it. */
    static final Map<String, Map<String, String>> CONSUMED = Map.of(
            "scheduler-service", Map.of(Topics.JOB_CREATED, "job-created-in", Topics.JOB_COMPLETED, "job-completed-in",
                    Topics.JOB_FAILED, "job-failed-in"),
            "worker-service", Map.of(Topics.RUN_JOB, "run-job-in"));

    @Test
    void prodGivesTheTopicsBetweenTheServicesTwelvePartitionsOrMore() {
        Map<String, Integer> partitions = partitions(Overlay.PROD);
        for (String topic : BETWEEN_SERVICES) {
            assertThat(partitions.get(topic)).as("partitions of %s in prod", topic).isGreaterThanOrEqualTo(12);
        }
    }

    @Test
    void theOtherOverlaysKeepTheSmallDefaults() {
        for (Overlay overlay : List.of(Overlay.BASE, Overlay.DEV, Overlay.DEV_JVM)) {
            for (String topic : BETWEEN_SERVICES) {
                assertThat(partitions(overlay).get(topic)).as("partitions of %s in %s", topic, overlay)
                        .isEqualTo(Topics.named(topic).partitions()).isLessThan(12);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Overlay.class)
    void noServiceRunsMoreReplicasThanThePartitionsItShares(Overlay overlay) {
        Map<String, Integer> partitions = partitions(overlay);
        CONSUMED.forEach((service, topics) -> {
            int most = maxReplicas(overlay, service);
            topics.keySet().forEach(topic -> assertThat(most)
                    .as("%s in %s: replicas at most (HPA maxReplicas, else replicas) against %s's %d partitions; "
                            + "a replica beyond them gets none", service, overlay, topic, partitions.get(topic))
                    .isLessThanOrEqualTo(partitions.get(topic)));
        });
    }

    @Test
    void prodWorkersMayGrowToTwelveOrMore() {
        HorizontalPodAutoscaler hpa = Overlay.PROD.get(HorizontalPodAutoscaler.class, "worker-service");
        assertThat(hpa.getSpec().getMaxReplicas()).isGreaterThanOrEqualTo(12);
        assertThat(hpa.getSpec().getMaxReplicas()).as("up to run-job's partitions")
                .isEqualTo(partitions(Overlay.PROD).get(Topics.RUN_JOB));
    }

    @ParameterizedTest
    @EnumSource(Overlay.class)
    void atTheFewestReplicasEveryConsumerHoldsAPartition(Overlay overlay) throws IOException {
        Map<String, Integer> partitions = partitions(overlay);
        for (var service : CONSUMED.entrySet()) {
            int fewest = minReplicas(overlay, service.getKey());
            for (var consumed : service.getValue().entrySet()) {
                int consumers = consumersPerReplica(overlay, service.getKey(), consumed.getValue());
                assertThat(fewest * consumers)
                        .as("%s in %s: %d replicas x %d consumers of %s (channel %s concurrency) against its %d "
                                + "partitions", service.getKey(), overlay, fewest, consumers, consumed.getKey(),
                                consumed.getValue(), partitions.get(consumed.getKey()))
                        .isLessThanOrEqualTo(partitions.get(consumed.getKey()));
            }
        }
    }

    @Test
    void theWorkerRunsSeveralConsumersAndTheSchedulerOnePerTopic() throws IOException {
        // What the bound above is checked with when no overlay sets a channel's concurrency: the services' own values.
        assertThat(consumersPerReplica(Overlay.BASE, "worker-service", "run-job-in")).isEqualTo(3);
        for (String channel : CONSUMED.get("scheduler-service").values()) {
            assertThat(consumersPerReplica(Overlay.BASE, "scheduler-service", channel)).as(channel).isEqualTo(1);
        }
    }

    /** Topic name to partition count, as the overlay's topic Job creates them. */
    static Map<String, Integer> partitions(Overlay overlay) {
        return KafkaTopicsTest.declaredTopics(overlay).stream()
                .collect(Collectors.toMap(Topics.TopicSpec::name, Topics.TopicSpec::partitions));
    }

    private static Optional<HorizontalPodAutoscaler> autoscaler(Overlay overlay, String deployment) {
        return overlay.all(HorizontalPodAutoscaler.class).stream()
                .filter(hpa -> hpa.getSpec().getScaleTargetRef().getKind().equals("Deployment")
                        && hpa.getSpec().getScaleTargetRef().getName().equals(deployment))
                .findFirst();
    }

    /** The most replicas the Deployment can run: its autoscaler's maximum, else its replica count. */
    static int maxReplicas(Overlay overlay, String deployment) {
        return autoscaler(overlay, deployment).map(hpa -> hpa.getSpec().getMaxReplicas())
                .orElseGet(() -> Optional.ofNullable(overlay.get(Deployment.class, deployment).getSpec().getReplicas())
                        .orElse(1));
    }

    /** The fewest replicas the Deployment runs: its autoscaler's minimum, else its replica count. */
    static int minReplicas(Overlay overlay, String deployment) {
        return autoscaler(overlay, deployment).map(hpa -> Optional.ofNullable(hpa.getSpec().getMinReplicas()).orElse(1))
                .orElseGet(() -> Optional.ofNullable(overlay.get(Deployment.class, deployment).getSpec().getReplicas())
                        .orElse(1));
    }

    /**
     * The Kafka consumers one replica runs on {@code channel}: the channel's {@code concurrency} from the container's
     * environment when the overlay sets it, else from the service's own settings (ServiceConfig), else 1.
     */
    static int consumersPerReplica(Overlay overlay, String service, String channel) throws IOException {
        String key = "mp.messaging.incoming." + channel + ".concurrency";
        String fromEnvironment = overlay.literalEnvironment(overlay.workload(service).mainContainer())
                .get(GracefulShutdownTest.environmentName(key));
        if (fromEnvironment != null) {
            return Integer.parseInt(fromEnvironment.strip());
        }
        Properties properties = ServiceConfig.properties(service);
        return Integer.parseInt(properties.getProperty(key, "1").strip());
    }
}
