package dev.jobweaver.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Probe;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Startup, readiness and liveness probes on Quarkus's health endpoints, with budgets that fit the start-up time. */
class HealthProbeTest {

    /** JVM start measured at 3-4 s on two cores; a throttled pod migrating its database needs far more. */
    private static final int MIN_STARTUP_BUDGET_SECONDS = 60;

    @ParameterizedTest
    @EnumSource(Overlay.class)
    void everyServiceProbesItsHealthEndpointsOnItsHttpPort(Overlay overlay) {
        for (var service : Overlay.SERVICES.entrySet()) {
            Overlay.Workload workload = overlay.workload(service.getKey());
            Container container = workload.mainContainer();
            assertHttpProbe(workload, container.getStartupProbe(), "/q/health/started", service.getValue());
            assertHttpProbe(workload, container.getReadinessProbe(), "/q/health/ready", service.getValue());
            assertHttpProbe(workload, container.getLivenessProbe(), "/q/health/live", service.getValue());
        }
    }

    @ParameterizedTest
    @EnumSource(Overlay.class)
    void startupBudgetCoversASlowStartAndLivenessWaitsForIt(Overlay overlay) {
        for (Overlay.Workload workload : overlay.serviceWorkloads()) {
            Probe startup = workload.mainContainer().getStartupProbe();
            int budget = orDefault(startup.getPeriodSeconds(), 10) * orDefault(startup.getFailureThreshold(), 3);
            assertThat(budget).as("start-up budget of %s in seconds", workload).isGreaterThanOrEqualTo(MIN_STARTUP_BUDGET_SECONDS);
            Probe liveness = workload.mainContainer().getLivenessProbe();
            assertThat(orDefault(liveness.getFailureThreshold(), 3)).as("liveness failures tolerated by %s", workload)
                    .isGreaterThanOrEqualTo(3);
            assertThat(orDefault(liveness.getTimeoutSeconds(), 1)).isGreaterThanOrEqualTo(1);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Overlay.class, names = {"DEV", "DEV_JVM"})
    void everyLongRunningContainerOfDevHasAReadinessProbe(Overlay overlay) {
        for (Overlay.Workload workload : overlay.workloads()) {
            if (workload.kind().equals("Job")) {
                continue;
            }
            for (Container container : workload.pod().getContainers()) {
                assertThat(container.getReadinessProbe()).as("readiness probe of %s in %s", container.getName(), workload).isNotNull();
                assertThat(container.getLivenessProbe()).as("liveness probe of %s in %s", container.getName(), workload).isNotNull();
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Overlay.class)
    void initContainersHaveNoProbes(Overlay overlay) {
        for (Overlay.Workload workload : overlay.workloads()) {
            for (Container init : Optional.ofNullable(workload.pod().getInitContainers()).orElse(List.of())) {
                assertThat(List.of(Optional.ofNullable(init.getReadinessProbe()), Optional.ofNullable(init.getLivenessProbe()),
                        Optional.ofNullable(init.getStartupProbe())))
                        .as("probes of init container %s in %s", init.getName(), workload)
                        .allMatch(Optional::isEmpty);
            }
        }
    }

    private static void assertHttpProbe(Overlay.Workload workload, Probe probe, String path, int port) {
        assertThat(probe).as("%s probe of %s", path, workload).isNotNull();
        assertThat(probe.getHttpGet()).as("%s probe of %s is an HTTP GET", path, workload).isNotNull();
        assertThat(probe.getHttpGet().getPath()).as("probe path of %s", workload).isEqualTo(path);
        var probePort = probe.getHttpGet().getPort();
        int resolved = probePort.getIntVal() != null ? probePort.getIntVal()
                : workload.mainContainer().getPorts().stream().filter(p -> probePort.getStrVal().equals(p.getName()))
                        .findFirst().orElseThrow().getContainerPort();
        assertThat(resolved).as("probe port of %s", workload).isEqualTo(port);
        assertThat(Map.of("scheme", Optional.ofNullable(probe.getHttpGet().getScheme()).orElse("HTTP")))
                .containsEntry("scheme", "HTTP");
    }

    private static int orDefault(Integer value, int fallback) {
        return value == null ? fallback : value;
    }
}
