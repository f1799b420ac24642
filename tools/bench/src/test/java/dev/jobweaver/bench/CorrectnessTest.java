package dev.jobweaver.bench;

import static dev.jobweaver.bench.Fixtures.completed;
import static dev.jobweaver.bench.Fixtures.ended;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class CorrectnessTest {

    @Test
    void jobsEndingAsExpectedAreOk() {
        Correctness c = Correctness.check(List.of(completed(JobKind.NOOP, 0, 5, 10),
                completed(JobKind.FLAKY, 0, 5, 10), completed(JobKind.SLEEPER, 0, 5, 5010)));
        assertThat(c.ok()).isTrue();
        assertThat(c.asExpected()).isEqualTo(3);
        assertThat(c.summary()).isEqualTo("3/3 as expected, 0 lost, 0 duplicated, 0 unexpected");
        assertThat(c.examples()).isEmpty();
    }

    @Test
    void aJobStillRunningOrMissingIsLost() {
        Correctness c = Correctness.check(List.of(ended(JobKind.NOOP, "RUNNING", 1, 1),
                ended(JobKind.NOOP, null, 0, 0)));
        assertThat(c.lost()).isEqualTo(2);
        assertThat(c.ok()).isFalse();
        assertThat(c.examples()).anySatisfy(e -> assertThat(e).contains("still RUNNING"))
                .anySatisfy(e -> assertThat(e).contains("no row in jobweaver_api.jobs"));
    }

    @Test
    void aNoOpExecutedTwiceIsDuplicated() {
        Correctness c = Correctness.check(List.of(ended(JobKind.NOOP, "COMPLETED", 1, 2)));
        assertThat(c.duplicated()).isEqualTo(1);
        assertThat(c.examples().getFirst()).contains("executed 2 times, expected 1");
    }

    @Test
    void failedOrWrongAttemptsAreUnexpected() {
        Correctness c = Correctness.check(List.of(ended(JobKind.FLAKY, "FAILED", 2, 2),
                ended(JobKind.FLAKY, "COMPLETED", 1, 1), ended(JobKind.NOOP, "COMPLETED", 1, 0)));
        assertThat(c.unexpected()).isEqualTo(3);
        assertThat(c.lost()).isZero();
        assertThat(c.duplicated()).isZero();
    }

    @Test
    void unreadableExecutionRowsAreNotJudgedButStatusAndAttemptsStillAre() {
        Correctness c = Correctness.check(List.of(ended(JobKind.NOOP, "COMPLETED", 1, -1),
                ended(JobKind.FLAKY, "COMPLETED", 1, -1)));
        assertThat(c.asExpected()).isEqualTo(1);
        assertThat(c.unexpected()).isEqualTo(1);
        assertThat(c.duplicated()).isZero();
    }
}
