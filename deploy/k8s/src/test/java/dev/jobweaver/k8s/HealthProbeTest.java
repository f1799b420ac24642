package dev.jobweaver.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Probe;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Startup, readiness and liveness probes on Quarkus's health endpoints, with budgets that fit the start-up time. */
class HealthProbeTest {

    /** JVM start measured at 3-4 s on two cores; a throttled pod migrating its database needs far more. */
    private static final int MIN_STARTUP_BUDGET_SECONDS = 60;

    /**
     * A native executable starts in about 0.2 s; what is left of a start is the Flyway migration and the first
     * connections, which a throttled pod finishes well within this.
     */
    private static final int MIN_NATIVE_STARTUP_BUDGET_SECONDS = 20;

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
        // prod runs the native executables with a start-up probe of their own; the others keep the JVM's budget
        int minimum = Overlay.PRODUCTION.contains(overlay) ? MIN_NATIVE_STARTUP_BUDGET_SECONDS : MIN_STARTUP_BUDGET_SECONDS;
        for (Overlay.Workload workload : overlay.serviceWorkloads()) {
            assertThat(startupBudgetSeconds(workload.mainContainer().getStartupProbe())).as("start-up budget of %s in seconds", workload)
                    .isGreaterThanOrEqualTo(minimum);
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

    /**
     * Prod's native executables are asked every second whether they have started, so a pod serves about a second after
     * its start instead of two, and a start that hangs is given up within half the JVM's budget; readiness and liveness
     * stay as the JVM overlays have them.
     */
    @Test
    void prodStartupProbeSuitsANativeStartAndKeepsTheOtherProbes() {
        for (Overlay.Workload workload : Overlay.PROD.serviceWorkloads()) {
            Container prod = workload.mainContainer();
            Container jvm = Overlay.DEV_JVM.workload(workload.name()).mainContainer();
            assertThat(orDefault(prod.getStartupProbe().getPeriodSeconds(), 10)).as("start-up probe period of %s", workload)
                    .isEqualTo(1);
            assertThat(startupBudgetSeconds(prod.getStartupProbe())).as("start-up budget of %s in seconds", workload)
                    .isLessThanOrEqualTo(startupBudgetSeconds(jvm.getStartupProbe()) / 2);
            assertThat(prod.getReadinessProbe()).as("readiness probe of %s", workload).isEqualTo(jvm.getReadinessProbe());
            assertThat(prod.getLivenessProbe()).as("liveness probe of %s", workload).isEqualTo(jvm.getLivenessProbe());
        }
    }

    static int startupBudgetSeconds(Probe startup) {
        return orDefault(startup.getPeriodSeconds(), 10) * orDefault(startup.getFailureThreshold(), 3);
    }

    private static int orDefault(Integer value, int fallback) {
        return value == null ? fallback : value;
    }
}
