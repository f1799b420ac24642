package dev.jobweaver.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How the checks find kubectl, and what they say when it is missing or too old. */
class KubectlTest {

    @Test
    void aPathWithoutKubectlFailsWithAnInstallationHint(@TempDir Path empty) {
        assertThatThrownBy(() -> Kubectl.locate(Map.of("PATH", empty.toString())))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("kubectl was not found")
                .hasMessageContaining("KUBECTL");
    }

    @Test
    void kubectlVariableWinsOverPath(@TempDir Path dir) throws Exception {
        Path fake = Files.writeString(dir.resolve("my-kubectl"), "#!/bin/sh\n");
        fake.toFile().setExecutable(true);
        assertThat(Kubectl.locate(Map.of("KUBECTL", fake.toString(), "PATH", "/nonexistent"))).isEqualTo(fake);
    }

    @Test
    void aKubectlVariableThatIsNoExecutableIsRejected(@TempDir Path dir) {
        assertThatThrownBy(() -> Kubectl.locate(Map.of("KUBECTL", dir.resolve("missing").toString())))
                .hasMessageContaining("is not an executable file");
    }

    @Test
    void findsAnExecutableOnPath(@TempDir Path dir) throws Exception {
        Path fake = Files.writeString(dir.resolve("kubectl"), "#!/bin/sh\n");
        fake.toFile().setExecutable(true);
        assertThat(Kubectl.locate(Map.of("PATH", "/nonexistent:" + dir))).isEqualTo(fake);
    }

    @Test
    void readsTheKustomizeVersionOfJsonAndTextOutput() {
        assertThat(Kubectl.kustomizeMajor("{\"clientVersion\":{},\"kustomizeVersion\": \"v5.5.0\"}")).isEqualTo(5);
        assertThat(Kubectl.kustomizeMajor("Client Version: v1.20.2\nKustomize Version: v2.0.3")).isEqualTo(2);
        assertThat(Kubectl.kustomizeMajor("nothing useful")).isEqualTo(-1);
    }

    @Test
    void theKubectlOfThisMachineEmbedsKustomize5OrLater() {
        Path kubectl = Kubectl.get();
        Kubectl.Result version = Kubectl.run(java.util.List.of(kubectl.toString(), "version", "--client", "-o", "json"), 60);
        assertThat(Kubectl.kustomizeMajor(version.stdout())).isGreaterThanOrEqualTo(Kubectl.MIN_KUSTOMIZE_MAJOR);
    }
}
