package dev.jobweaver.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Images are pinned (a fixed tag or a digest, never latest), the services run their native images (prod the ones on the
 * micro base image), and every service image's tag names the Dockerfile of its service that builds it.
 */
class ImagePinningTest {

    private static final Pattern DIGEST = Pattern.compile(".+@sha256:[0-9a-f]{64}");

    @ParameterizedTest
    @EnumSource(Overlay.class)
    void everyImageIsPinned(Overlay overlay) {
        for (Overlay.Workload workload : overlay.workloads()) {
            for (Container container : workload.allContainers()) {
                assertThat(isPinned(container.getImage())).as("image %s of %s in %s", container.getImage(),
                        container.getName(), workload).isTrue();
                assertThat(container.getImagePullPolicy()).as("pull policy of %s in %s", container.getName(), workload)
                        .isEqualTo("IfNotPresent");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = Overlay.class, names = {"BASE", "DEV"})
    void servicesRunTheirNativeImages(Overlay overlay) {
        for (Overlay.Workload workload : overlay.serviceWorkloads()) {
            String image = workload.mainContainer().getImage();
            assertThat(image).as("image of %s", workload).contains("/" + workload.name() + ":").endsWith("-native");
        }
    }

    @Test
    void devJvmRunsTheJvmImagesWithTheHeapWithinTheLimit() {
        for (Overlay.Workload workload : Overlay.DEV_JVM.serviceWorkloads()) {
            assertThat(workload.mainContainer().getImage()).isEqualTo("jobweaver/" + workload.name() + ":1.0.0-jvm");
            int ratio = Integer.parseInt(Overlay.DEV_JVM.literalEnvironment(workload.mainContainer()).get("JAVA_MAX_MEM_RATIO"));
            assertThat(ratio).as("heap share of the memory limit for %s", workload).isBetween(25, 60);
        }
    }

    @Test
    void prodPullsTheMicroImagesFromItsRegistry() {
        for (Overlay.Workload workload : Overlay.PROD.serviceWorkloads()) {
            assertThat(workload.mainContainer().getImage())
                    .isEqualTo("registry.example.com/jobweaver/" + workload.name() + ":1.0.0-native-micro");
        }
    }

    /** A tag 1.0.0-{@code variant} is what src/main/docker/Dockerfile.{@code variant} of the service builds (README). */
    @ParameterizedTest
    @EnumSource(Overlay.class)
    void everyServiceImageIsBuiltByADockerfileOfItsService(Overlay overlay) {
        for (Overlay.Workload workload : overlay.serviceWorkloads()) {
            String image = workload.mainContainer().getImage();
            assertThat(image).as("image of %s", workload).contains(":1.0.0-");
            String variant = image.substring(image.lastIndexOf(":1.0.0-") + ":1.0.0-".length());
            assertThat(Overlay.repoDir().resolve(workload.name()).resolve("src/main/docker/Dockerfile." + variant))
                    .as("Dockerfile building %s of %s", image, workload).isRegularFile();
        }
    }

    @Test
    void recognisesUnpinnedImages() {
        assertThat(isPinned("apache/kafka")).isFalse();
        assertThat(isPinned("apache/kafka:latest")).isFalse();
        assertThat(isPinned("localhost:5000/kafka")).isFalse();
        assertThat(isPinned("localhost:5000/kafka:4.3.1")).isTrue();
        assertThat(isPinned("apache/kafka@sha256:" + "a".repeat(64))).isTrue();
    }

    static boolean isPinned(String image) {
        if (image == null || image.isBlank()) {
            return false;
        }
        if (DIGEST.matcher(image).matches()) {
            return true;
        }
        String lastSegment = image.substring(image.lastIndexOf('/') + 1);
        int colon = lastSegment.indexOf(':');
        if (colon < 0) {
            return false;
        }
        String tag = lastSegment.substring(colon + 1);
        return !tag.isBlank() && !tag.equals("latest");
    }
}
