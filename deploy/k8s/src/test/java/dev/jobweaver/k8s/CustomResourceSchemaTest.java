package dev.jobweaver.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The operators' resources are checked against the vendored CRD schemas as strictly as the built-in kinds against
 * fabric8's model: each kind of edit the API server would refuse is refused here, naming what is wrong.
 */
class CustomResourceSchemaTest {

    private static final String VALID_USER = """
            apiVersion: kafka.strimzi.io/v1
            kind: KafkaUser
            metadata:
              name: probe
              labels:
                strimzi.io/cluster: jobweaver
            spec:
              authentication:
                type: scram-sha-512
              authorization:
                type: simple
                acls:
                  - resource:
                      type: topic
                      name: run-job
                    operations: [Describe, Read]
            """;

    private static final String VALID_TOPIC = """
            apiVersion: kafka.strimzi.io/v1
            kind: KafkaTopic
            metadata:
              name: run-job
            spec:
              partitions: 12
              replicas: 3
              config:
                retention.ms: 604800000
            """;

    @Test
    void theOperatorsKindsAreKnownInTheirV1Api() {
        assertThat(CustomResourceSchemas.kinds()).contains("kafka.strimzi.io/v1/Kafka", "kafka.strimzi.io/v1/KafkaNodePool",
                "kafka.strimzi.io/v1/KafkaTopic", "kafka.strimzi.io/v1/KafkaUser", "postgresql.cnpg.io/v1/Cluster",
                "postgresql.cnpg.io/v1/ScheduledBackup");
    }

    @Test
    void theReferenceDocumentsAreValid() {
        assertThat(validate(VALID_USER)).isInstanceOf(GenericKubernetesResource.class);
        assertThat(validate(VALID_TOPIC)).isInstanceOf(GenericKubernetesResource.class);
    }

    static Stream<Arguments> invalidEdits() {
        return Stream.of(
                Arguments.of("an unknown field", VALID_USER, "  authentication:", "  authentiction: {}\n  authentication:",
                        "spec.authentiction: unknown field"),
                Arguments.of("a value outside the enum", VALID_USER, "[Describe, Read]", "[Describe, Reed]",
                        "spec.authorization.acls[0].operations[1]"),
                Arguments.of("a missing required field", VALID_USER, "        operations: [Describe, Read]\n", "",
                        "required field operations is missing"),
                Arguments.of("a string where an integer belongs", VALID_TOPIC, "partitions: 12", "partitions: \"12\"",
                        "spec.partitions"),
                Arguments.of("a value below the minimum", VALID_TOPIC, "partitions: 12", "partitions: 0",
                        "below the minimum"),
                Arguments.of("an unknown metadata field", VALID_TOPIC, "  name: run-job\n", "  name: run-job\n  label: {a: b}\n",
                        "label"),
                Arguments.of("an API version the manifests do not use", VALID_TOPIC, "kafka.strimzi.io/v1",
                        "kafka.strimzi.io/v1beta2", "not a known schema"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidEdits")
    void anInvalidEditIsRejectedNamingWhatIsWrong(String wrong, String document, String from, String to, String named) {
        String edited = document.replace(from, to);
        assertThat(edited).as("the edit applies").isNotEqualTo(document);
        assertThatThrownBy(() -> validate(edited)).isInstanceOf(StrictKubernetesModel.InvalidManifestException.class)
                .hasMessageContaining(named);
    }

    private static Object validate(String yaml) {
        return StrictKubernetesModel.validate(StrictKubernetesModel.documents(yaml).getFirst());
    }
}
