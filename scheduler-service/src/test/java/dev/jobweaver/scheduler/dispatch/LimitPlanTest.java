package dev.jobweaver.scheduler.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jobweaver.scheduler.job.store.JobClaims.Candidate;
import dev.jobweaver.scheduler.job.store.JobClaims.Running;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** {@link LimitPlan}: which candidates a limited claim takes, and which keys it need not read. */
class LimitPlanTest {

    private static final UUID WF = UUID.randomUUID();

    @Test
    void takesEachTenantUpToItsRoomAndPassesOverTheRest() {
        LimitPlan plan = new LimitPlan(100, 0, OptionalInt.empty(), Map.of(), Map.of("a", 3),
                List.of(new Running("a", "SIMULATION", null, null, 1)));
        List<Candidate> candidates = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            candidates.add(candidate("a", "SIMULATION", null, null));
        }
        Candidate other = candidate("b", "SIMULATION", null, null);
        candidates.add(other);

        List<UUID> picked = plan.pick(candidates);

        assertThat(picked).containsExactly(candidates.get(0).jobId(), candidates.get(1).jobId(), other.jobId());
    }

    @Test
    void theGlobalAndInFlightLimitsAndTheBatchBoundTheRoom() {
        List<Running> running = List.of(new Running("a", "SIMULATION", null, null, 7));
        assertThat(new LimitPlan(100, 0, OptionalInt.of(10), Map.of(), Map.of(), running).room()).isEqualTo(3);
        assertThat(new LimitPlan(100, 9, OptionalInt.of(10), Map.of(), Map.of(), running).room()).isEqualTo(2);
        assertThat(new LimitPlan(1, 0, OptionalInt.of(10), Map.of(), Map.of(), running).room()).isEqualTo(1);
        assertThat(new LimitPlan(100, 0, OptionalInt.of(5), Map.of(), Map.of(), running).room())
                .as("over the limit: nothing, never negative").isZero();
    }

    @Test
    void aJobTypesLimitAndAWorkflowsLimitHoldEachTheirOwnKeys() {
        LimitPlan plan = new LimitPlan(100, 0, OptionalInt.empty(), Map.of("HTTP", 1), Map.of(),
                List.of(new Running("a", "SIMULATION", WF, 2, 1)));
        Candidate http1 = candidate("a", "HTTP", null, null);
        Candidate http2 = candidate("a", "HTTP", null, null);
        Candidate wf1 = candidate("a", "SIMULATION", WF, 2);
        Candidate wf2 = candidate("a", "SIMULATION", WF, 2);
        Candidate plain = candidate("a", "SIMULATION", null, null);

        assertThat(plan.pick(List.of(http1, http2, wf1, wf2, plain)))
                .containsExactly(http1.jobId(), wf1.jobId(), plain.jobId());
    }

    @Test
    void aQueuesLimitHoldsItsOwnJobsOnly() {
        LimitPlan plan = new LimitPlan(100, 0, OptionalInt.empty(), Map.of(), Map.of("reports", 2), Map.of(),
                List.of(new Running("a", "SIMULATION", "reports", null, null, 1)));
        UUID first = UUID.randomUUID();
        UUID second = UUID.randomUUID();
        UUID other = UUID.randomUUID();

        List<UUID> picked = plan.pick(List.of(new Candidate(first, "a", "SIMULATION", "reports", null, null),
                new Candidate(second, "a", "SIMULATION", "reports", null, null),
                new Candidate(other, "a", "SIMULATION", "default", null, null)));

        assertThat(picked).containsExactly(first, other);
        assertThat(plan.saturatedQueues()).isEmpty();
        assertThat(new LimitPlan(100, 0, OptionalInt.empty(), Map.of(), Map.of("reports", 1), Map.of(),
                List.of(new Running("a", "SIMULATION", "reports", null, null, 1))).saturatedQueues())
                .containsExactly("reports");
    }

    @Test
    void namesTheSaturatedKeys() {
        LimitPlan plan = new LimitPlan(100, 0, OptionalInt.empty(), Map.of("HTTP", 2, "SIMULATION", 9),
                Map.of("a", 2, "b", 5), List.of(new Running("a", "HTTP", WF, 1, 2)));

        assertThat(plan.saturatedTenants()).containsExactly("a");
        assertThat(plan.saturatedTypes()).containsExactly("HTTP");
        assertThat(plan.saturatedWorkflows()).containsExactly(WF);
    }

    @Test
    void aLimitOfAMalformedTypeStopsTheStart() {
        assertThat(Dispatcher.typeLimits(Map.of("image.resize", 3))).containsEntry("image.resize", 3);
        assertThatThrownBy(() -> Dispatcher.typeLimits(Map.of("1NOPE", 3)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1NOPE is not a job type");
        assertThatThrownBy(() -> Dispatcher.typeLimits(Map.of("HTTP", 0)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 1");
    }

    private static Candidate candidate(String tenant, String type, UUID workflow, Integer workflowMax) {
        return new Candidate(UUID.randomUUID(), tenant, type, workflow, workflowMax);
    }
}
