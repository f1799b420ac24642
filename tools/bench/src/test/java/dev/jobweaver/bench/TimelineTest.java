package dev.jobweaver.bench;

import static dev.jobweaver.bench.Fixtures.T0;
import static dev.jobweaver.bench.Fixtures.at;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class TimelineTest {

    @Test
    void countsPerWholeSecond() {
        assertThat(Timeline.perSecond(List.of(at(0), at(999), at(1000), at(3500), at(-20)), T0))
                .containsExactly(3, 1, 0, 1);
    }

    @Test
    void nothingIsEmpty() {
        assertThat(Timeline.perSecond(List.of(), T0)).isEmpty();
    }
}
