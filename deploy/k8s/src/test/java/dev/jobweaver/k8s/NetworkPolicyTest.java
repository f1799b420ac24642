package dev.jobweaver.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.k8s.NetworkPolicies.Source;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The rendered NetworkPolicies, evaluated: only the API is reachable from outside the namespace, each database only
 * from its own service, Kafka only from the services and the topic Job.
 */
class NetworkPolicyTest {

    private static final Source INTRUDER = Source.pod("an unrelated pod of the namespace", Map.of("app", "intruder"));

    @ParameterizedTest
    @EnumSource(value = Overlay.class, names = {"DEV", "DEV_JVM", "PROD", "PROD_OPERATORS"})
    void onlyTheApiIsReachableFromOutsideTheNamespace(Overlay overlay) {
        NetworkPolicies policies = policies(overlay);
        for (Source outsider : List.of(Source.otherNamespace(), Source.external())) {
            for (Overlay.Workload workload : overlay.workloads()) {
                for (int port : ports(workload)) {
                    boolean expected = workload.name().equals("api-service") && port == 8080;
                    assertThat(policies.allows(outsider, workload.podLabels(), port))
                            .as("%s -> %s:%d", outsider.description(), workload, port).isEqualTo(expected);
                }
            }
        }
    }

    @Test
    void eachDatabaseAnswersOnlyItsOwnService() {
        NetworkPolicies policies = policies(Overlay.DEV);
        for (String owner : Overlay.SERVICES.keySet()) {
            Map<String, String> database = podLabels(Overlay.DEV, "postgres-" + owner.replace("-service", ""));
            for (Overlay.Workload client : Overlay.DEV.workloads()) {
                boolean expected = client.name().equals(owner);
                assertThat(policies.allows(Source.pod(client.toString(), client.podLabels()), database, 5432))
                        .as("%s -> database of %s", client, owner).isEqualTo(expected);
            }
            assertThat(policies.allows(INTRUDER, database, 5432)).isFalse();
        }
    }

    @Test
    void kafkaAnswersOnlyTheServicesAndTheTopicJob() {
        NetworkPolicies policies = policies(Overlay.DEV);
        Map<String, String> kafka = podLabels(Overlay.DEV, "kafka");
        for (Overlay.Workload client : Overlay.DEV.workloads()) {
            boolean expected = Overlay.SERVICES.containsKey(client.name()) || client.kind().equals("Job");
            assertThat(policies.allows(Source.pod(client.toString(), client.podLabels()), kafka, 9092))
                    .as("%s -> kafka:9092", client).isEqualTo(expected);
        }
        assertThat(policies.allows(INTRUDER, kafka, 9092)).isFalse();
    }

    @Test
    void tracesAreAcceptedFromTheServicesOnly() {
        NetworkPolicies policies = policies(Overlay.DEV);
        Map<String, String> jaeger = podLabels(Overlay.DEV, "jaeger");
        for (String service : Overlay.SERVICES.keySet()) {
            assertThat(policies.allows(Source.pod(service, podLabels(Overlay.DEV, service)), jaeger, 4317)).isTrue();
        }
        assertThat(policies.allows(INTRUDER, jaeger, 4317)).isFalse();
        assertThat(policies.allows(Source.pod("kafka", podLabels(Overlay.DEV, "kafka")), jaeger, 4317)).isFalse();
    }

    @ParameterizedTest
    @EnumSource(value = Overlay.class, names = {"DEV", "DEV_JVM", "PROD"})
    void everyPodIsIsolatedByDefault(Overlay overlay) {
        NetworkPolicies policies = policies(overlay);
        for (Overlay.Workload workload : overlay.workloads()) {
            assertThat(policies.allows(INTRUDER, workload.podLabels(), 65000)).as("unlisted port of %s", workload).isFalse();
        }
    }

    @Test
    void theEvaluatorKnowsAnOpenNamespaceFromAClosedOne() {
        assertThat(new NetworkPolicies(List.of()).allows(Source.external(), Map.of("app", "x"), 80)).isTrue();
    }

    static NetworkPolicies policies(Overlay overlay) {
        return new NetworkPolicies(overlay.all(NetworkPolicy.class));
    }

    private static Map<String, String> podLabels(Overlay overlay, String workload) {
        return overlay.workload(workload).podLabels();
    }

    private static List<Integer> ports(Overlay.Workload workload) {
        return workload.pod().getContainers().stream()
                .flatMap(c -> c.getPorts() == null ? java.util.stream.Stream.empty() : c.getPorts().stream())
                .map(p -> p.getContainerPort()).toList();
    }
}
