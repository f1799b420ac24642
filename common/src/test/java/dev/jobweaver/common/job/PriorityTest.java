package dev.jobweaver.common.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PriorityTest {

    @Test
    void firstLevelsFollowTheWeightsOverEveryRoll() {
        Map<Priority, Integer> firsts = new EnumMap<>(Priority.class);
        for (int roll = 0; roll < 100; roll++) {
            firsts.merge(Priority.firstFor(roll), 1, Integer::sum);
        }
        assertThat(firsts).containsEntry(Priority.HIGH, 70).containsEntry(Priority.NORMAL, 20)
                .containsEntry(Priority.LOW, 10);
    }

    @Test
    void aClaimFallsThroughToTheOtherLevelsInOrder() {
        assertThat(Priority.HIGH.claimOrder()).containsExactly(Priority.HIGH, Priority.NORMAL, Priority.LOW);
        assertThat(Priority.NORMAL.claimOrder()).containsExactly(Priority.NORMAL, Priority.HIGH, Priority.LOW);
        assertThat(Priority.LOW.claimOrder()).containsExactly(Priority.LOW, Priority.HIGH, Priority.NORMAL);
    }
}
