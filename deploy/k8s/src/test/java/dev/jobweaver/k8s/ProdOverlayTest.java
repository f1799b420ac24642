package dev.jobweaver.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Prod runs no infrastructure of its own, points at the external one through configuration, and runs more replicas. */
class ProdOverlayTest {

    @Test
    void runsOnlyTheServicesAndTheTopicJob() {
        assertThat(Overlay.PROD.all(StatefulSet.class)).isEmpty();
        assertThat(Overlay.PROD.all(PersistentVolumeClaim.class)).isEmpty();
        assertThat(Overlay.PROD.workloads()).extracting(Overlay.Workload::name)
                .containsExactlyInAnyOrder("api-service", "scheduler-service", "worker-service", "jobweaver-create-topics");
    }

    @Test
    void kafkaAndDatabasesAreExternal() {
        for (Overlay.Workload workload : Overlay.PROD.serviceWorkloads()) {
            Map<String, String> prod = Overlay.PROD.literalEnvironment(workload.mainContainer());
            Map<String, String> dev = Overlay.DEV.literalEnvironment(Overlay.DEV.workload(workload.name()).mainContainer());
            assertThat(prod.get("KAFKA_BOOTSTRAP_SERVERS")).isNotEqualTo(dev.get("KAFKA_BOOTSTRAP_SERVERS")).contains(".");
            assertThat(prod.get("QUARKUS_DATASOURCE_REACTIVE_URL")).isNotEqualTo(dev.get("QUARKUS_DATASOURCE_REACTIVE_URL"));
            assertThat(prod.get("QUARKUS_DATASOURCE_JDBC_URL")).isNotEqualTo(dev.get("QUARKUS_DATASOURCE_JDBC_URL"));
        }
    }

    @Test
    void runsMoreReplicasThanDevSpreadOverNodes() {
        for (String name : new String[] {"api-service", "scheduler-service"}) {
            Overlay.Workload prod = Overlay.PROD.workload(name);
            assertThat(prod.replicas()).as("replicas of %s", name)
                    .isGreaterThanOrEqualTo(2).isGreaterThan(Overlay.DEV.workload(name).replicas());
            assertThat(prod.pod().getTopologySpreadConstraints()).as("spread of %s", name)
                    .anySatisfy(c -> assertThat(c.getTopologyKey()).isEqualTo("kubernetes.io/hostname"));
        }
    }
}
