package dev.jobweaver.worker.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.sdk.HandlerDefaults;
import dev.jobweaver.worker.testing.RunSettings;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** An attempt's bound: the job's own timeoutMs, else its type's declared timeout, else the payload's own plus the slack. */
class RunTimeBoundTest {

    private static final RunSettings SLACK_30S = RunSettings.defaults();
    private static final JobControl OWN_TIMEOUT = new JobControl(null, null, 2_000L, null, null, null);

    @Test
    void theJobsOwnTimeoutWinsOverItsTypesDefault() {
        RunTimeBound bound = RunTimeBound.of(Duration.ofSeconds(1), OWN_TIMEOUT,
                HandlerDefaults.none().withTimeout(Duration.ofSeconds(5)), SLACK_30S);

        assertThat(bound).isEqualTo(new RunTimeBound(Duration.ofSeconds(2), true));
    }

    @Test
    void aJobWithoutOneIsBoundByItsTypesDeclaredTimeoutAsByItsOwn() {
        RunTimeBound bound = RunTimeBound.of(Duration.ofSeconds(1), null,
                HandlerDefaults.none().withTimeout(Duration.ofSeconds(5)), SLACK_30S);

        assertThat(bound).isEqualTo(new RunTimeBound(Duration.ofSeconds(5), true));
        assertThat(bound.start().fromTimeoutMs()).as("running past it is a WORKER.TIMEOUT").isTrue();
    }

    @Test
    void withNeitherThePayloadsOwnDurationAndTheSlackBoundIt() {
        assertThat(RunTimeBound.of(Duration.ofSeconds(1), JobControl.DEFAULTS, HandlerDefaults.none(), SLACK_30S))
                .isEqualTo(new RunTimeBound(Duration.ofSeconds(31), false));
        assertThat(RunTimeBound.of(Duration.ofDays(2), null, SLACK_30S)).isEqualTo(
                new RunTimeBound(RunTimeBound.CAP, false));
    }
}
