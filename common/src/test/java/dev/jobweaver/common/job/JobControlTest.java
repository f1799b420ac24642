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
}
