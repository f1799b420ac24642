package dev.jobweaver.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What the API server or the kubelet would refuse although every object is well typed: selectors that miss their
 * pods, mounts of undeclared volumes, references to ConfigMaps or Secrets that do not exist, Services whose
 * target port no container has.
 */
class ReferenceIntegrityTest {

    @ParameterizedTest
    @EnumSource(Overlay.class)
    void workloadSelectorsMatchTheirPodTemplates(Overlay overlay) {
        for (Deployment d : overlay.all(Deployment.class)) {
            assertThat(NetworkPolicies.matches(d.getSpec().getSelector(), d.getSpec().getTemplate().getMetadata().getLabels()))
                    .as("selector of Deployment %s", d.getMetadata().getName()).isTrue();
        }
        for (StatefulSet s : overlay.all(StatefulSet.class)) {
            assertThat(NetworkPolicies.matches(s.getSpec().getSelector(), s.getSpec().getTemplate().getMetadata().getLabels()))
                    .as("selector of StatefulSet %s", s.getMetadata().getName()).isTrue();
            Service governing = overlay.get(Service.class, s.getSpec().getServiceName());
            assertThat(governing.getSpec().getClusterIP()).as("headless Service of %s", s.getMetadata().getName())
                    .isEqualTo("None");
        }
    }

    @ParameterizedTest
    @EnumSource(Overlay.class)
    void mountsNameDeclaredVolumesAndContainerNamesAreUnique(Overlay overlay) {
        for (Overlay.Workload workload : overlay.workloads()) {
            Set<String> volumes = new HashSet<>();
            Optional.ofNullable(workload.pod().getVolumes()).orElse(List.of()).forEach(v -> volumes.add(v.getName()));
            if (workload.kind().equals("StatefulSet")) {
                overlay.get(StatefulSet.class, workload.name()).getSpec().getVolumeClaimTemplates()
                        .forEach(claim -> volumes.add(claim.getMetadata().getName()));
            }
            List<String> names = workload.allContainers().stream().map(Container::getName).toList();
            assertThat(names).as("container names of %s", workload).doesNotHaveDuplicates();
            for (Container container : workload.allContainers()) {
                Stream.ofNullable(container.getVolumeMounts()).flatMap(List::stream).forEach(mount ->
                        assertThat(volumes).as("volume %s mounted by %s in %s", mount.getName(), container.getName(), workload)
                                .contains(mount.getName()));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Overlay.class)
    void requiredConfigMapsExist(Overlay overlay) {
        Set<String> configMaps = names(overlay.all(ConfigMap.class).stream().map(c -> c.getMetadata().getName()));
        for (Overlay.Workload workload : overlay.workloads()) {
            List<String> referenced = new ArrayList<>();
            for (Container container : workload.allContainers()) {
                Stream.ofNullable(container.getEnvFrom()).flatMap(List::stream)
                        .filter(source -> source.getConfigMapRef() != null && !Boolean.TRUE.equals(source.getConfigMapRef().getOptional()))
                        .forEach(source -> referenced.add(source.getConfigMapRef().getName()));
                Stream.ofNullable(container.getEnv()).flatMap(List::stream)
                        .filter(var -> var.getValueFrom() != null && var.getValueFrom().getConfigMapKeyRef() != null)
                        .forEach(var -> referenced.add(var.getValueFrom().getConfigMapKeyRef().getName()));
            }
            Stream.ofNullable(workload.pod().getVolumes()).flatMap(List::stream)
                    .map(Volume::getConfigMap).filter(Objects::nonNull)
                    .filter(source -> !Boolean.TRUE.equals(source.getOptional()))
                    .forEach(source -> referenced.add(source.getName()));
            assertThat(configMaps).as("ConfigMaps used by %s", workload).containsAll(referenced);
        }
    }

    @Test
    void devRendersEverySecretItsPodsNeed() {
        Set<String> secrets = names(Overlay.DEV.all(Secret.class).stream()
                .map(s -> s.getMetadata().getName().replaceAll("-[a-z0-9]{10}$", "")));
        assertThat(requiredSecrets(Overlay.DEV)).isNotEmpty().allSatisfy(name -> assertThat(secrets).contains(name));
    }

    @Test
    void prodKeepsCredentialsOutOfGitAndNeedsOnlyTheDocumentedSecrets() {
        assertThat(Overlay.PROD.all(Secret.class)).isEmpty();
        assertThat(requiredSecrets(Overlay.PROD))
                .containsExactlyInAnyOrder("api-service-db", "scheduler-service-db", "worker-service-db",
                        "jobweaver-api-security", "jobweaver-jwt");
    }

    @ParameterizedTest
    @EnumSource(Overlay.class)
    void servicesSelectPodsThatHaveTheirTargetPorts(Overlay overlay) {
        for (Service service : overlay.all(Service.class)) {
            List<Overlay.Workload> selected = overlay.workloads().stream()
                    .filter(w -> !w.kind().equals("Job"))
                    .filter(w -> w.podLabels().entrySet().containsAll(service.getSpec().getSelector().entrySet()))
                    .toList();
            assertThat(selected).as("pods behind Service %s", service.getMetadata().getName()).isNotEmpty();
            for (ServicePort port : service.getSpec().getPorts()) {
                for (Overlay.Workload workload : selected) {
                    assertThat(hasPort(workload, port.getTargetPort().getStrVal(), port.getTargetPort().getIntVal()))
                            .as("target port %s of Service %s in %s", port.getTargetPort(), service.getMetadata().getName(), workload)
                            .isTrue();
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Overlay.class)
    void probesUseDeclaredPortsAndServiceAccountsExist(Overlay overlay) {
        for (Overlay.Workload workload : overlay.workloads()) {
            for (Container container : workload.pod().getContainers()) {
                for (Probe probe : Stream.of(container.getStartupProbe(), container.getReadinessProbe(), container.getLivenessProbe())
                        .filter(Objects::nonNull).toList()) {
                    var port = probe.getHttpGet() != null ? probe.getHttpGet().getPort()
                            : probe.getTcpSocket() != null ? probe.getTcpSocket().getPort() : null;
                    if (port != null) {
                        assertThat(hasPort(workload, port.getStrVal(), port.getIntVal()))
                                .as("probe port %s of %s", port, workload).isTrue();
                    }
                }
            }
            String account = workload.pod().getServiceAccountName();
            if (account != null) {
                assertThat(overlay.find(ServiceAccount.class, account)).as("ServiceAccount of %s", workload).isPresent();
            }
        }
    }

    private static boolean hasPort(Overlay.Workload workload, String name, Integer number) {
        return workload.pod().getContainers().stream()
                .flatMap(c -> Optional.ofNullable(c.getPorts()).orElse(List.of()).stream())
                .map(ContainerPort.class::cast)
                .anyMatch(p -> name != null ? name.equals(p.getName()) : number.equals(p.getContainerPort()));
    }

    static Set<String> requiredSecrets(Overlay overlay) {
        Set<String> names = new HashSet<>();
        for (Overlay.Workload workload : overlay.workloads()) {
            for (Container container : workload.allContainers()) {
                Stream.ofNullable(container.getEnv()).flatMap(List::stream)
                        .filter(var -> var.getValueFrom() != null && var.getValueFrom().getSecretKeyRef() != null)
                        .filter(var -> !Boolean.TRUE.equals(var.getValueFrom().getSecretKeyRef().getOptional()))
                        .forEach(var -> names.add(var.getValueFrom().getSecretKeyRef().getName().replaceAll("-[a-z0-9]{10}$", "")));
                Stream.ofNullable(container.getEnvFrom()).flatMap(List::stream)
                        .filter(source -> source.getSecretRef() != null && !Boolean.TRUE.equals(source.getSecretRef().getOptional()))
                        .forEach(source -> names.add(source.getSecretRef().getName()));
            }
            Stream.ofNullable(workload.pod().getVolumes()).flatMap(List::stream)
                    .map(Volume::getSecret).filter(Objects::nonNull)
                    .filter(source -> !Boolean.TRUE.equals(source.getOptional()))
                    .forEach(source -> names.add(source.getSecretName().replaceAll("-[a-z0-9]{10}$", "")));
        }
        return names;
    }

    private static Set<String> names(Stream<String> names) {
        return new HashSet<>(names.toList());
    }
}
