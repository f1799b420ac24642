package dev.jobweaver.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProgressLineTest {

    @Test
    void barFollowsCompletedJobs() {
        String line = ProgressLine.render("burst", 200, 120, 50, 2.0);
        assertThat(line).startsWith("burst     [" + "#".repeat(6) + ".".repeat(18) + "]  25%");
        assertThat(line).contains("sent 120/200", "done 50", "25 jobs/s", "2.0 s");
    }

    @Test
    void neverOverflows() {
        assertThat(ProgressLine.render("x", 10, 10, 12, 1)).contains("[" + "#".repeat(24) + "] 100%");
        assertThat(ProgressLine.render("x", 0, 0, 0, 0)).contains("  0%", "0 jobs/s");
    }
}
