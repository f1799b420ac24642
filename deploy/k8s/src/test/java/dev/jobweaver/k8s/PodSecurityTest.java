package dev.jobweaver.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The services run non-root on a read-only root filesystem with no privilege and no capability; every other pod
 * (Kafka, PostgreSQL, Jaeger, the topic Job) still meets Pod Security's "restricted" profile, which the namespaces
 * enforce.
 */
class PodSecurityTest {

    @ParameterizedTest
    @EnumSource(Overlay.class)
    void serviceContainersAreNonRootReadOnlyAndUnprivileged(Overlay overlay) {
        for (Overlay.Workload workload : overlay.serviceWorkloads()) {
            for (Container container : workload.allContainers()) {
                String what = container.getName() + " in " + workload;
                SecurityContext context = container.getSecurityContext();
                assertThat(context).as("securityContext of %s", what).isNotNull();
                assertThat(context.getReadOnlyRootFilesystem()).as("read-only root filesystem of %s", what).isTrue();
                assertRestricted(workload, container);
                assertThat(Optional.ofNullable(container.getVolumeMounts()).orElse(List.of()))
                        .as("/tmp of %s", what)
                        .anySatisfy(mount -> assertTmpIsEmptyDir(workload, mount));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Overlay.class)
    void everyPodMeetsTheRestrictedProfile(Overlay overlay) {
        for (Overlay.Workload workload : overlay.workloads()) {
            var pod = workload.pod();
            assertThat(pod.getHostNetwork()).as("hostNetwork of %s", workload).isNotEqualTo(Boolean.TRUE);
            assertThat(pod.getHostPID()).as("hostPID of %s", workload).isNotEqualTo(Boolean.TRUE);
            assertThat(pod.getHostIPC()).as("hostIPC of %s", workload).isNotEqualTo(Boolean.TRUE);
            assertThat(Optional.ofNullable(pod.getVolumes()).orElse(List.of()))
                    .as("volumes of %s", workload).allSatisfy(v -> assertThat(v.getHostPath()).isNull());
            for (Container container : workload.allContainers()) {
                assertRestricted(workload, container);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Overlay.class)
    void servicesRunUnderTheirOwnAccountWithoutAnApiToken(Overlay overlay) {
        for (Overlay.Workload workload : overlay.serviceWorkloads()) {
            assertThat(workload.pod().getServiceAccountName()).isEqualTo(workload.name());
            assertThat(workload.pod().getAutomountServiceAccountToken()).as("token of %s", workload).isFalse();
            assertThat(overlay.get(ServiceAccount.class, workload.name()).getAutomountServiceAccountToken()).isFalse();
        }
    }

    @Test
    void namespacesEnforceTheRestrictedProfile() {
        for (Overlay overlay : Overlay.DEPLOYABLE) {
            Namespace namespace = overlay.all(Namespace.class).getFirst();
            assertThat(namespace.getMetadata().getLabels())
                    .containsEntry("pod-security.kubernetes.io/enforce", "restricted");
        }
    }

    private static void assertRestricted(Overlay.Workload workload, Container container) {
        String what = container.getName() + " in " + workload;
        PodSecurityContext pod = Optional.ofNullable(workload.pod().getSecurityContext()).orElse(new PodSecurityContext());
        SecurityContext own = Optional.ofNullable(container.getSecurityContext()).orElse(new SecurityContext());
        Boolean nonRoot = own.getRunAsNonRoot() != null ? own.getRunAsNonRoot() : pod.getRunAsNonRoot();
        assertThat(nonRoot).as("runAsNonRoot of %s", what).isTrue();
        Long user = own.getRunAsUser() != null ? own.getRunAsUser() : pod.getRunAsUser();
        // Unset is fine: runAsNonRoot makes the kubelet refuse an image whose numeric USER is 0.
        assertThat(user == null || user != 0L).as("runAsUser of %s is not root", what).isTrue();
        assertThat(own.getPrivileged()).as("privileged of %s", what).isNotEqualTo(Boolean.TRUE);
        assertThat(own.getAllowPrivilegeEscalation()).as("allowPrivilegeEscalation of %s", what).isFalse();
        assertThat(own.getCapabilities()).as("capabilities of %s", what).isNotNull();
        assertThat(own.getCapabilities().getDrop()).as("dropped capabilities of %s", what).contains("ALL");
        assertThat(Optional.ofNullable(own.getCapabilities().getAdd()).orElse(List.of()))
                .as("added capabilities of %s", what).isEmpty();
        var seccomp = own.getSeccompProfile() != null ? own.getSeccompProfile() : pod.getSeccompProfile();
        assertThat(seccomp).as("seccomp profile of %s", what).isNotNull();
        assertThat(seccomp.getType()).as("seccomp profile of %s", what).isIn("RuntimeDefault", "Localhost");
    }

    private static void assertTmpIsEmptyDir(Overlay.Workload workload, VolumeMount mount) {
        assertThat(mount.getMountPath()).isEqualTo("/tmp");
        var volume = workload.pod().getVolumes().stream().filter(v -> v.getName().equals(mount.getName())).findFirst().orElseThrow();
        assertThat(volume.getEmptyDir()).as("/tmp volume of %s", workload).isNotNull();
    }
}
