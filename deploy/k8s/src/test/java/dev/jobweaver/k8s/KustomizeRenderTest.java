package dev.jobweaver.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every kustomization renders with `kubectl kustomize`, into the namespace and with the labels it promises. */
class KustomizeRenderTest {

    @ParameterizedTest
    @EnumSource(Overlay.class)
    void renders(Overlay overlay) {
        String yaml = overlay.yaml();
        assertThat(StrictKubernetesModel.documents(yaml)).hasSizeGreaterThan(10);
    }

    @ParameterizedTest
    @EnumSource(Overlay.class)
    void everyObjectIsLabelledAsPartOfJobweaver(Overlay overlay) {
        List<String> unlabelled = overlay.objects().stream()
                .filter(o -> !"jobweaver".equals(labels(o).get("app.kubernetes.io/part-of")))
                .filter(o -> !(o instanceof Namespace))
                .map(o -> o.getKind() + "/" + o.getMetadata().getName())
                .toList();
        assertThat(unlabelled).isEmpty();
    }

    @Test
    void devLivesInItsOwnNamespace() {
        assertNamespaced(Overlay.DEV, "jobweaver-dev");
    }

    @Test
    void devJvmLivesWithDev() {
        assertNamespaced(Overlay.DEV_JVM, "jobweaver-dev");
    }

    @Test
    void prodLivesInItsOwnNamespace() {
        assertNamespaced(Overlay.PROD, "jobweaver");
    }

    private static void assertNamespaced(Overlay overlay, String namespace) {
        assertThat(overlay.all(Namespace.class)).extracting(n -> n.getMetadata().getName()).containsExactly(namespace);
        List<String> elsewhere = overlay.objects().stream()
                .filter(o -> !(o instanceof Namespace))
                .filter(o -> !namespace.equals(o.getMetadata().getNamespace()))
                .map(o -> o.getKind() + "/" + o.getMetadata().getName() + " in " + o.getMetadata().getNamespace())
                .toList();
        assertThat(elsewhere).isEmpty();
    }

    private static Map<String, String> labels(HasMetadata object) {
        return object.getMetadata().getLabels() == null ? Map.of() : object.getMetadata().getLabels();
    }
}
