package dev.jobweaver.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * components/kafka-sasl on prod renders valid objects in which every container that talks to Kafka (the services,
 * their init containers, the topic Job) gets the SASL credentials from the Secret jobweaver-kafka-sasl, and every one
 * the SASL_SSL protocol and mechanism; prod without it has none of this.
 */
class KafkaSaslComponentTest {

    private static List<HasMetadata> rendered;

    /** prod with the component, through a kustomization of its own (a Component does not render alone). */
    static synchronized List<HasMetadata> rendered() throws IOException {
        if (rendered == null) {
            rendered = StrictKubernetesModel.parseAll(Overlay.prodWith("kafka-sasl", ""));
        }
        return rendered;
    }

    /** The service Deployments' and the topic Job's containers, init containers included. */
    private static List<Container> kafkaClients(List<HasMetadata> objects) {
        List<Container> containers = new ArrayList<>();
        for (HasMetadata object : objects) {
            PodTemplateSpec template = switch (object) {
                case Deployment d when Overlay.SERVICES.containsKey(d.getMetadata().getName()) -> d.getSpec()
                        .getTemplate();
                case Job j -> j.getSpec().getTemplate();
                default -> null;
            };
            if (template != null) {
                containers.addAll(Optional.ofNullable(template.getSpec().getInitContainers()).orElse(List.of()));
                containers.addAll(template.getSpec().getContainers());
            }
        }
        return containers;
    }

    private static Optional<EnvVar> jaas(Container container) {
        return container.getEnv().stream().filter(v -> v.getName().equals("KAFKA_SASL_JAAS_CONFIG")).findFirst();
    }

    @Test
    void everyKafkaClientGetsTheCredentialsFromTheSecret() throws IOException {
        List<Container> clients = kafkaClients(rendered());
        assertThat(clients).as("3 services with an init container each, and the topic Job").hasSize(7);
        assertThat(clients).allSatisfy(container -> {
            EnvVar var = jaas(container).orElseThrow(() -> new AssertionError(container.getName() + " has no JAAS"));
            assertThat(var.getValue()).isNull();
            assertThat(var.getValueFrom().getSecretKeyRef().getName()).isEqualTo("jobweaver-kafka-sasl");
            assertThat(var.getValueFrom().getSecretKeyRef().getKey()).isEqualTo("sasl.jaas.config");
            assertThat(container.getEnvFrom()).as("%s reads the shared Kafka settings", container.getName())
                    .anyMatch(source -> source.getConfigMapRef() != null
                            && source.getConfigMapRef().getName().startsWith("jobweaver-kafka-"));
        });
    }

    @Test
    void theSharedKafkaSettingsTurnOnSaslOverTls() throws IOException {
        ConfigMap kafka = rendered().stream().filter(ConfigMap.class::isInstance).map(ConfigMap.class::cast)
                .filter(map -> map.getMetadata().getName().matches("jobweaver-kafka-[a-z0-9]{10}")).findFirst()
                .orElseThrow();
        assertThat(kafka.getData()).containsEntry("KAFKA_SECURITY_PROTOCOL", "SASL_SSL")
                .containsKey("KAFKA_SASL_MECHANISM").containsKey("KAFKA_BOOTSTRAP_SERVERS")
                .doesNotContainKey("KAFKA_SASL_JAAS_CONFIG");
    }

    @Test
    void prodWithoutTheComponentHasNoSasl() {
        assertThat(kafkaClients(Overlay.PROD.objects())).isNotEmpty().allSatisfy(container ->
                assertThat(jaas(container)).isEmpty());
        assertThat(Overlay.PROD.configMap("jobweaver-kafka").getData()).doesNotContainKey("KAFKA_SECURITY_PROTOCOL");
    }
}
