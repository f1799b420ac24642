package dev.jobweaver.scheduler.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.job.Priority;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClaimOrderTest {

    @Test
    void everyOrderVisitsEachLevelOnceStartingWithTheDrawnOne() {
        assertThat(ClaimOrder.draw(() -> 0)).containsExactly(Priority.HIGH, Priority.NORMAL, Priority.LOW);
        assertThat(ClaimOrder.draw(() -> 69)).containsExactly(Priority.HIGH, Priority.NORMAL, Priority.LOW);
        assertThat(ClaimOrder.draw(() -> 70)).containsExactly(Priority.NORMAL, Priority.HIGH, Priority.LOW);
        assertThat(ClaimOrder.draw(() -> 89)).containsExactly(Priority.NORMAL, Priority.HIGH, Priority.LOW);
        assertThat(ClaimOrder.draw(() -> 90)).containsExactly(Priority.LOW, Priority.HIGH, Priority.NORMAL);
        assertThat(ClaimOrder.draw(() -> 99)).containsExactly(Priority.LOW, Priority.HIGH, Priority.NORMAL);
    }

    @Test
    void randomDrawsStartWithEachLevelAtItsShare() {
        int draws = 100_000;
        Map<Priority, Integer> first = new EnumMap<>(Priority.class);
        for (int i = 0; i < draws; i++) {
            List<Priority> order = ClaimOrder.draw();
            assertThat(order).containsExactlyInAnyOrder(Priority.values());
            first.merge(order.getFirst(), 1, Integer::sum);
        }
        // Standard deviations over 100,000 draws are 0.1-0.15 points: these ranges are 5 or more of them wide.
        assertThat(first.get(Priority.HIGH) / (double) draws).isBetween(0.69, 0.71);
        assertThat(first.get(Priority.NORMAL) / (double) draws).isBetween(0.19, 0.21);
        assertThat(first.get(Priority.LOW) / (double) draws).isBetween(0.095, 0.105);
    }
}
