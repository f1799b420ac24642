package dev.jobweaver.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** How often the watcher polls: often while few jobs are open, less as each poll grows. */
class CompletionWatcherTest {

    @Test
    void fewOpenJobsArePolledEveryQuarterSecond() {
        assertThat(CompletionWatcher.pollMillis(0)).isEqualTo(250);
        assertThat(CompletionWatcher.pollMillis(5_000)).isEqualTo(250);
    }

    @Test
    void manyOpenJobsStretchThePeriodSoAPollChecksAtMostTwentyIdsPerMillisecond() {
        assertThat(CompletionWatcher.pollMillis(10_000)).isEqualTo(500);
        assertThat(CompletionWatcher.pollMillis(20_000)).isEqualTo(1_000);
    }
}
