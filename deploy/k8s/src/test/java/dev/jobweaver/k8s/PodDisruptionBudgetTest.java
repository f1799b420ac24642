package dev.jobweaver.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every service has one PodDisruptionBudget that covers exactly its pods and still lets a node drain. */
class PodDisruptionBudgetTest {

    @ParameterizedTest
    @EnumSource(Overlay.class)
    void everyServiceHasExactlyOneBudgetCoveringOnlyItsPods(Overlay overlay) {
        List<PodDisruptionBudget> budgets = overlay.all(PodDisruptionBudget.class);
        for (Overlay.Workload service : overlay.serviceWorkloads()) {
            List<PodDisruptionBudget> covering = budgets.stream()
                    .filter(b -> NetworkPolicies.matches(b.getSpec().getSelector(), service.podLabels())).toList();
            assertThat(covering).as("budgets covering %s", service).hasSize(1);
            for (Overlay.Workload other : overlay.workloads()) {
                if (!other.name().equals(service.name())) {
                    assertThat(NetworkPolicies.matches(covering.getFirst().getSpec().getSelector(), other.podLabels()))
                            .as("budget of %s also covers %s", service, other).isFalse();
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Overlay.class)
    void everyBudgetAllowsAtLeastOneEviction(Overlay overlay) {
        for (Overlay.Workload service : overlay.serviceWorkloads()) {
            PodDisruptionBudget budget = overlay.get(PodDisruptionBudget.class, service.name());
            int replicas = service.replicas() != null ? service.replicas()
                    : overlay.get(HorizontalPodAutoscaler.class, service.name()).getSpec().getMinReplicas();
            IntOrString maxUnavailable = budget.getSpec().getMaxUnavailable();
            IntOrString minAvailable = budget.getSpec().getMinAvailable();
            assertThat(maxUnavailable == null ^ minAvailable == null).as("one of minAvailable/maxUnavailable for %s", service).isTrue();
            int evictable = maxUnavailable != null ? absolute(maxUnavailable, replicas) : replicas - absolute(minAvailable, replicas);
            assertThat(evictable).as("pods of %s a drain may evict at once (replicas %d)", service, replicas)
                    .isGreaterThanOrEqualTo(1);
        }
    }

    private static int absolute(IntOrString value, int replicas) {
        if (value.getIntVal() != null) {
            return value.getIntVal();
        }
        int percent = Integer.parseInt(value.getStrVal().replace("%", ""));
        return (int) Math.ceil(replicas * percent / 100.0);
    }
}
