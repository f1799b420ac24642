package dev.jobweaver.bench.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class KillPlanTest {

    @Test
    void theSameSeedGivesTheSameSequence() {
        assertThat(KillPlan.first(42, 20)).isEqualTo(KillPlan.first(42, 20));
    }

    @Test
    void differentSeedsGiveDifferentSequences() {
        assertThat(KillPlan.first(1, 20)).isNotEqualTo(KillPlan.first(2, 20));
    }

    @Test
    void everyRoundOfFiveHitsEveryTargetOnce() {
        for (long seed = 0; seed < 50; seed++) {
            List<Target> targets = KillPlan.first(seed, 20);
            for (int round = 0; round < 4; round++) {
                assertThat(EnumSet.copyOf(targets.subList(round * 5, round * 5 + 5)))
                        .as("seed %d, round %d", seed, round).containsExactlyInAnyOrder(Target.values());
            }
        }
    }

    @Test
    void theOrderWithinARoundVaries() {
        assertThat(java.util.stream.LongStream.range(0, 20).mapToObj(seed -> KillPlan.first(seed, 5)).distinct()
                .count()).isGreaterThan(10);
    }

    @Test
    void choosingAReplicaNeverChangesTheTargets() {
        KillPlan withReplicas = new KillPlan(7);
        List<Target> expected = KillPlan.first(7, 10);
        for (Target target : expected) {
            assertThat(withReplicas.next()).isEqualTo(target);
            assertThat(withReplicas.instance(3)).isBetween(0, 2);
        }
        assertThat(new KillPlan(7).instance(1)).isZero();
    }
}
