package dev.jobweaver.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every container has CPU and memory requests and limits; the services' are sized from the memory measured in JVM mode,
 * except in prod, whose native executables are sized from the native target.
 */
class ResourceSizingTest {

    /** Highest RSS measured for a service in JVM mode on this machine (machine-facts.md: 250-295 MB). */
    static final BigDecimal MEASURED_RSS_BYTES = BigDecimal.valueOf(295L * 1000 * 1000);

    /** What a native service stays under, resident, under load: the target the native executables are held to. */
    static final BigDecimal NATIVE_TARGET_RSS_BYTES = BigDecimal.valueOf(100L * 1000 * 1000);

    @ParameterizedTest
    @EnumSource(Overlay.class)
    void everyContainerHasRequestsAndLimitsForCpuAndMemory(Overlay overlay) {
        for (Overlay.Workload workload : overlay.workloads()) {
            for (Container container : workload.allContainers()) {
                String what = container.getName() + " in " + workload;
                assertThat(container.getResources()).as("resources of %s", what).isNotNull();
                Map<String, Quantity> requests = container.getResources().getRequests();
                Map<String, Quantity> limits = container.getResources().getLimits();
                assertThat(requests).as("requests of %s", what).containsKeys("cpu", "memory");
                assertThat(limits).as("limits of %s", what).containsKeys("cpu", "memory");
                for (String resource : new String[] {"cpu", "memory"}) {
                    assertThat(bytes(requests.get(resource))).as("%s request of %s within its limit", resource, what)
                            .isLessThanOrEqualTo(bytes(limits.get(resource)));
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = Overlay.class, names = {"BASE", "DEV", "DEV_JVM"})
    void serviceMemoryCoversTheMeasuredFootprintWithHeadroom(Overlay overlay) {
        for (Overlay.Workload workload : overlay.serviceWorkloads()) {
            var resources = workload.mainContainer().getResources();
            BigDecimal request = bytes(resources.getRequests().get("memory"));
            BigDecimal limit = bytes(resources.getLimits().get("memory"));
            assertThat(request).as("memory request of %s against the measured RSS", workload)
                    .isGreaterThanOrEqualTo(MEASURED_RSS_BYTES);
            assertThat(limit).as("memory limit of %s: at least 1.5 times the measured RSS", workload)
                    .isGreaterThanOrEqualTo(MEASURED_RSS_BYTES.multiply(BigDecimal.valueOf(1.5)));
            assertThat(limit).as("memory limit of %s: a service does not need gigabytes", workload)
                    .isLessThanOrEqualTo(BigDecimal.valueOf(2L * 1024 * 1024 * 1024));
        }
    }

    /**
     * The request covers the native target with at most a third more (the scheduler sees what the pods use), the limit
     * at least 1.5 times the target for load peaks and the Serial GC's heap, and both stay below the JVM's.
     */
    @Test
    void prodSizesTheNativeExecutablesFromTheNativeTarget() {
        for (Overlay.Workload workload : Overlay.PROD.serviceWorkloads()) {
            var resources = workload.mainContainer().getResources();
            var jvm = Overlay.DEV_JVM.workload(workload.name()).mainContainer().getResources();
            BigDecimal request = bytes(resources.getRequests().get("memory"));
            BigDecimal limit = bytes(resources.getLimits().get("memory"));
            assertThat(request).as("memory request of %s against the native target", workload)
                    .isGreaterThanOrEqualTo(NATIVE_TARGET_RSS_BYTES)
                    .isLessThanOrEqualTo(BigDecimal.valueOf(128L * 1024 * 1024))
                    .isLessThan(bytes(jvm.getRequests().get("memory")));
            assertThat(limit).as("memory limit of %s: at least 1.5 times the native target", workload)
                    .isGreaterThanOrEqualTo(NATIVE_TARGET_RSS_BYTES.multiply(BigDecimal.valueOf(1.5)))
                    .isLessThan(bytes(jvm.getLimits().get("memory")));
        }
    }

    @ParameterizedTest
    @EnumSource(value = Overlay.class, names = {"DEV", "DEV_JVM"})
    void kafkaHeapFitsItsMemoryLimit(Overlay overlay) {
        Container kafka = overlay.workload("kafka").mainContainer();
        String heap = overlay.literalEnvironment(kafka).get("KAFKA_HEAP_OPTS");
        var matcher = java.util.regex.Pattern.compile("-Xmx(\\d+)m").matcher(heap);
        assertThat(matcher.find()).as("KAFKA_HEAP_OPTS sets -Xmx").isTrue();
        BigDecimal heapBytes = BigDecimal.valueOf(Long.parseLong(matcher.group(1)) * 1024 * 1024);
        assertThat(bytes(kafka.getResources().getLimits().get("memory")))
                .isGreaterThan(heapBytes.multiply(BigDecimal.valueOf(2)));
    }

    /**
     * The whole dev overlay reserves at most one CPU and 3 GiB, so it schedules on a two-CPU, 4 GiB laptop cluster
     * next to the cluster's own pods (about one CPU for kube-system on kind or minikube).
     */
    @ParameterizedTest
    @EnumSource(value = Overlay.class, names = {"DEV", "DEV_JVM"})
    void devFitsALaptopCluster(Overlay overlay) {
        BigDecimal cpu = BigDecimal.ZERO;
        BigDecimal memory = BigDecimal.ZERO;
        for (Overlay.Workload workload : overlay.workloads()) {
            if (workload.kind().equals("Job")) {
                continue;
            }
            int replicas = workload.replicas() == null ? 1 : workload.replicas();
            for (Container container : workload.pod().getContainers()) {
                Map<String, Quantity> requests = container.getResources().getRequests();
                cpu = cpu.add(bytes(requests.get("cpu")).multiply(BigDecimal.valueOf(replicas)));
                memory = memory.add(bytes(requests.get("memory")).multiply(BigDecimal.valueOf(replicas)));
            }
        }
        assertThat(cpu).as("CPU requested by dev").isLessThanOrEqualTo(BigDecimal.ONE);
        assertThat(memory).as("memory requested by dev").isLessThanOrEqualTo(BigDecimal.valueOf(3L * 1024 * 1024 * 1024));
    }

    static BigDecimal bytes(Quantity quantity) {
        return Quantity.getAmountInBytes(quantity);
    }
}
