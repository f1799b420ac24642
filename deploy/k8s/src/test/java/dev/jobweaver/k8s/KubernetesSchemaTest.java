package dev.jobweaver.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** Every rendered object validates against the Kubernetes schema (fabric8's typed model, with no catch-all). */
class KubernetesSchemaTest {

    private static final String VALID_DEPLOYMENT = """
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: probe
              annotations:
                prometheus.io/scrape: "true"
            spec:
              replicas: 1
              selector:
                matchLabels: {app: probe}
              template:
                metadata:
                  labels: {app: probe}
                spec:
                  containers:
                    - name: probe
                      image: example/probe:1.0.0
                      ports:
                        - containerPort: 8080
                      resources:
                        limits: {memory: 256Mi, cpu: "1"}
            """;

    @ParameterizedTest
    @EnumSource(Overlay.class)
    void everyRenderedDocumentValidates(Overlay overlay) {
        List<String> failures = new ArrayList<>();
        for (JsonNode document : StrictKubernetesModel.documents(overlay.yaml())) {
            try {
                StrictKubernetesModel.validate(document);
            } catch (StrictKubernetesModel.InvalidManifestException e) {
                failures.add(e.getMessage());
            }
        }
        assertThat(failures).as("schema violations in %s", overlay.relativePath()).isEmpty();
    }

    @Test
    void theReferenceDocumentIsValid() {
        assertThat(validate(VALID_DEPLOYMENT)).isInstanceOf(Deployment.class);
    }

    @Test
    void anUnknownFieldIsRejectedWithItsPath() {
        String yaml = VALID_DEPLOYMENT.replace("image: example/probe:1.0.0",
                "image: example/probe:1.0.0\n          imagePullPolicyy: Always");
        assertThatThrownBy(() -> validate(yaml))
                .hasMessageContaining("imagePullPolicyy")
                .hasMessageContaining("spec.template.spec.containers[0]");
    }

    /** Edits of the reference document that make it invalid: what is wrong, the edit, and what the refusal names. */
    static Stream<Arguments> invalidEdits() {
        return Stream.of(
                Arguments.of("a field at the wrong level", "  replicas: 1", "  replicas: 1\n  containers: []",
                        "containers"),
                Arguments.of("an unknown metadata field", "  name: probe\n", "  name: probe\n  label: {a: b}\n",
                        "label"),
                Arguments.of("a string where an integer belongs", "containerPort: 8080", "containerPort: \"8080\"",
                        "containerPort"),
                Arguments.of("a missing kind", "kind: Deployment\n", "", "kind is missing"),
                Arguments.of("a missing apiVersion", "apiVersion: apps/v1\n", "", "apiVersion is missing"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidEdits")
    void anInvalidEditIsRejectedNamingWhatIsWrong(String wrong, String from, String to, String named) {
        assertThatThrownBy(() -> validate(VALID_DEPLOYMENT.replace(from, to))).hasMessageContaining(named);
    }

    @Test
    void aBooleanWhereAStringBelongsIsRejected() {
        String yaml = VALID_DEPLOYMENT.replace("prometheus.io/scrape: \"true\"", "prometheus.io/scrape: true");
        assertThatThrownBy(() -> validate(yaml)).isInstanceOf(StrictKubernetesModel.InvalidManifestException.class);
    }

    @Test
    void aNumberAsAConfigMapValueIsRejected() {
        String yaml = """
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: config}
                data:
                  QUARKUS_HTTP_PORT: 8080
                """;
        assertThatThrownBy(() -> validate(yaml)).hasMessageContaining("QUARKUS_HTTP_PORT");
    }

    @Test
    void aRemovedApiVersionIsRejected() {
        String yaml = """
                apiVersion: autoscaling/v2beta2
                kind: HorizontalPodAutoscaler
                metadata: {name: worker}
                spec: {maxReplicas: 3}
                """;
        assertThatThrownBy(() -> validate(yaml)).hasMessageContaining("not a known schema");
    }

    private static Object validate(String yaml) {
        return StrictKubernetesModel.validate(StrictKubernetesModel.documents(yaml).getFirst());
    }
}
