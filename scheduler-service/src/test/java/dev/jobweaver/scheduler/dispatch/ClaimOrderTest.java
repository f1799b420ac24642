package dev.jobweaver.scheduler.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jobweaver.common.job.Priority;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which priority level a claim looks at first, by the configured weights, and that it then visits the others. */
class ClaimOrderTest {

    @Test
    void everyOrderVisitsEachLevelOnceStartingWithTheDrawnOne() {
        ClaimOrder order = ClaimOrder.DEFAULT;
        assertThat(order.draw(bound -> 0)).containsExactly(Priority.HIGH, Priority.NORMAL, Priority.LOW);
        assertThat(order.draw(bound -> 69)).containsExactly(Priority.HIGH, Priority.NORMAL, Priority.LOW);
        assertThat(order.draw(bound -> 70)).containsExactly(Priority.NORMAL, Priority.HIGH, Priority.LOW);
        assertThat(order.draw(bound -> 89)).containsExactly(Priority.NORMAL, Priority.HIGH, Priority.LOW);
        assertThat(order.draw(bound -> 90)).containsExactly(Priority.LOW, Priority.HIGH, Priority.NORMAL);
        assertThat(order.draw(bound -> 99)).containsExactly(Priority.LOW, Priority.HIGH, Priority.NORMAL);
    }

    @Test
    void randomDrawsStartWithEachLevelAtItsShare() {
        assertShares(ClaimOrder.DEFAULT, 0.70, 0.20, 0.10);
    }

    @Test
    void configuredWeightsSetTheSharesWhateverTheirSum() {
        assertShares(new ClaimOrder(1, 1, 2), 0.25, 0.25, 0.50);
        ClaimOrder lowNeverFirst = new ClaimOrder(3, 1, 0);
        assertThat(lowNeverFirst.draw(bound -> bound - 1)).as("the last value of the draw")
                .containsExactly(Priority.NORMAL, Priority.HIGH, Priority.LOW);
        assertShares(lowNeverFirst, 0.75, 0.25, 0.0);
    }

    @Test
    void weightsThatCannotBeDrawnAreRefusedNamingTheSetting() {
        assertThatThrownBy(() -> new ClaimOrder(0, 0, 0))
                .hasMessage("jobweaver.scheduler.dispatch.priority-weights must be 0 or more each, at least one above 0"
                        + " and 1,000,000 at most together, got high=0, normal=0, low=0");
        assertThatThrownBy(() -> new ClaimOrder(70, -1, 10)).hasMessageContaining("normal=-1");
    }

    private static void assertShares(ClaimOrder claims, double high, double normal, double low) {
        int draws = 100_000;
        Map<Priority, Integer> first = new EnumMap<>(Priority.class);
        for (int i = 0; i < draws; i++) {
            List<Priority> order = claims.draw();
            assertThat(order).containsExactlyInAnyOrder(Priority.values());
            first.merge(order.getFirst(), 1, Integer::sum);
        }
        // Standard deviations over 100,000 draws are at most 0.16 points: these ranges are 6 or more of them wide.
        assertThat(first.getOrDefault(Priority.HIGH, 0) / (double) draws).isBetween(high - 0.01, high + 0.01);
        assertThat(first.getOrDefault(Priority.NORMAL, 0) / (double) draws).isBetween(normal - 0.01, normal + 0.01);
        assertThat(first.getOrDefault(Priority.LOW, 0) / (double) draws).isBetween(low - 0.01, low + 0.01);
    }
}
