package dev.jobweaver.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.messaging.Topics;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The worker scales with a HorizontalPodAutoscaler, on CPU, within the partitions it can consume. */
class WorkerAutoscalingTest {

    @ParameterizedTest
    @EnumSource(Overlay.class)
    void autoscalerTargetsTheWorkerDeployment(Overlay overlay) {
        HorizontalPodAutoscaler hpa = overlay.get(HorizontalPodAutoscaler.class, "worker-service");
        var target = hpa.getSpec().getScaleTargetRef();
        assertThat(target.getApiVersion()).isEqualTo("apps/v1");
        assertThat(target.getKind()).isEqualTo("Deployment");
        assertThat(overlay.find(Deployment.class, target.getName())).isPresent();
        assertThat(target.getName()).isEqualTo("worker-service");
    }

    @ParameterizedTest
    @EnumSource(Overlay.class)
    void scalesOnCpuWithinTheRunJobPartitions(Overlay overlay) {
        HorizontalPodAutoscaler hpa = overlay.get(HorizontalPodAutoscaler.class, "worker-service");
        int partitions = ScaleOutTest.partitions(overlay).get(Topics.RUN_JOB);
        assertThat(hpa.getSpec().getMinReplicas()).isBetween(1, hpa.getSpec().getMaxReplicas());
        assertThat(hpa.getSpec().getMaxReplicas()).as("more workers than run-job partitions would sit idle")
                .isLessThanOrEqualTo(partitions);
        assertThat(hpa.getSpec().getMetrics()).anySatisfy(metric -> {
            assertThat(metric.getType()).isEqualTo("Resource");
            assertThat(metric.getResource().getName()).isEqualTo("cpu");
            assertThat(metric.getResource().getTarget().getAverageUtilization()).isBetween(30, 90);
        });
        assertThat(overlay.workload("worker-service").mainContainer().getResources().getRequests())
                .as("utilisation is measured against the CPU request").containsKey("cpu");
    }

    @ParameterizedTest
    @EnumSource(Overlay.class)
    void theDeploymentLeavesTheReplicaCountToTheAutoscaler(Overlay overlay) {
        assertThat(overlay.get(Deployment.class, "worker-service").getSpec().getReplicas()).isNull();
    }

    @Test
    void prodKeepsMoreWorkersThanDev() {
        int dev = Overlay.DEV.get(HorizontalPodAutoscaler.class, "worker-service").getSpec().getMinReplicas();
        int prod = Overlay.PROD.get(HorizontalPodAutoscaler.class, "worker-service").getSpec().getMinReplicas();
        assertThat(prod).isGreaterThan(dev).isGreaterThanOrEqualTo(2);
    }
}
