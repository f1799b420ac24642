package dev.jobweaver.common.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class JobControlTest {

    @Test
    void anAbsentControlReadsAsTheDefaults() {
        JobControl control = JobControl.orDefaults(null);

        assertThat(control.priorityOrDefault()).isEqualTo(Priority.NORMAL);
        assertThat(control.tenantOrDefault()).isEqualTo("default");
        assertThat(control.labelsOrEmpty()).isEmpty();
        assertThat(control.retryDelayMs(1)).isNull();
    }

    @Test
    void retryNUsesEntryMinOfNAndLast() {
        JobControl control = new JobControl(null, null, null, List.of(100L, 2_000L, 30_000L), null, null);

        assertThat(control.retryDelayMs(1)).isEqualTo(100L);
        assertThat(control.retryDelayMs(2)).isEqualTo(2_000L);
        assertThat(control.retryDelayMs(3)).isEqualTo(30_000L);
        assertThat(control.retryDelayMs(7)).isEqualTo(30_000L);
    }

    @Test
    void aSourcesDefaultPriorityFillsOnlyAnAbsentOne() {
        JobControl queued = new JobControl(null, null, 5_000L, null, "t1", null, "billing");

        assertThat(JobControl.withDefaultPriority(null, Priority.HIGH).priority()).isEqualTo(Priority.HIGH);
        JobControl filled = JobControl.withDefaultPriority(queued, Priority.HIGH);
        assertThat(filled.priority()).isEqualTo(Priority.HIGH);
        assertThat(filled).isEqualTo(new JobControl(Priority.HIGH, null, 5_000L, null, "t1", null, "billing"));
        JobControl own = new JobControl(Priority.LOW, null, null, null, null, null);
        assertThat(JobControl.withDefaultPriority(own, Priority.HIGH)).isSameAs(own);
    }

    @Test
    void aNormalDefaultLeavesTheControlAsItWas() {
        assertThat(JobControl.withDefaultPriority(null, Priority.NORMAL)).isNull();
        JobControl queued = new JobControl(null, null, null, null, null, null, "billing");
        assertThat(JobControl.withDefaultPriority(queued, Priority.NORMAL)).isSameAs(queued);
    }
}
