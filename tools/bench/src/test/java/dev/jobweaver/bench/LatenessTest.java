package dev.jobweaver.bench;

import static dev.jobweaver.bench.Fixtures.at;
import static dev.jobweaver.bench.Fixtures.completed;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** How late a delayed job started: against the platform's runAt, else the send time plus its delay. */
class LatenessTest {

    /** A job sent at T0 + sentMs with delayMs, started at T0 + startMs, the platform's runAt at T0 + runAtMs. */
    private static JobRecord delayed(long sentMs, long delayMs, Long runAtMs, long startMs) {
        return completed(JobKind.NOOP, sentMs, startMs, startMs + 3)
                .withControl(Control.delayed(delayMs), runAtMs == null ? null : at(runAtMs), null);
    }

    @Test
    void theDueTimeIsThePlatformsRunAtWhenRecorded() {
        JobRecord job = delayed(0, 2_000, 2_004L, 2_030);
        assertThat(job.dueAt()).isEqualTo(at(2_004));
        assertThat(job.latenessMs()).isEqualTo(26);
    }

    @Test
    void withoutRunAtTheDueTimeIsTheSendTimePlusTheDelay() {
        JobRecord job = delayed(10, 2_000, null, 2_030);
        assertThat(job.dueAt()).isEqualTo(at(2_010));
        assertThat(job.latenessMs()).isEqualTo(20);
    }

    @Test
    void aJobSentWithoutDelayHasNoDueTimeAndNoLateness() {
        JobRecord job = completed(JobKind.NOOP, 0, 5, 9);
        assertThat(job.dueAt()).isNull();
        assertThat(job.latenessMs()).isNaN();
        assertThat(Lateness.of(List.of(job))).isEqualTo(Lateness.NONE);
        assertThat(Lateness.NONE.measured()).isFalse();
    }

    @Test
    void percentilesEarliestAndEarlyStartsBeyondTheTolerance() {
        List<JobRecord> jobs = List.of(
                delayed(0, 2_000, 2_000L, 2_010),   // 10 ms late
                delayed(0, 3_000, 3_000L, 3_050),   // 50 ms late
                delayed(0, 4_000, 4_000L, 3_999),   // 1 ms early: within the clocks' tolerance
                delayed(0, 5_000, null, 4_990),     // 10 ms early against send + delay: early for certain
                completed(JobKind.NOOP, 0, 5, 9));  // not delayed: not counted

        Lateness late = Lateness.of(jobs);

        assertThat(late.delayed()).isEqualTo(4);
        assertThat(late.started()).isEqualTo(4);
        assertThat(late.early()).isEqualTo(1);
        assertThat(late.earliestMs()).isEqualTo(-10);
        assertThat(late.millis().max()).isEqualTo(50);
        assertThat(late.millis().count()).isEqualTo(4);
        assertThat(late.dueFromPlatform()).isEqualTo(3);
        assertThat(late.dueFromClient()).isEqualTo(1);
        assertThat(late.dueSource()).contains("runAt for 3 jobs", "send time + delayMs for 1");
    }

    @Test
    void aStartExactlyAtTheToleranceIsNotEarly() {
        double tolerance = Lateness.EARLY_TOLERANCE_MS;
        assertThat(tolerance).isEqualTo(2);
        Lateness late = Lateness.of(List.of(delayed(0, 1_000, 1_000L, 998)));
        assertThat(late.early()).isZero();
        assertThat(late.earliestMs()).isEqualTo(-2);
    }

    @Test
    void aJobThatNeverStartedIsDelayedButNotStarted() {
        JobRecord lost = Fixtures.ended(JobKind.NOOP, null, 0, 0).withControl(Control.delayed(1_000), null, null);
        Lateness late = Lateness.of(List.of(lost, delayed(0, 1_000, 1_000L, 1_020)));
        assertThat(late.delayed()).isEqualTo(2);
        assertThat(late.started()).isEqualTo(1);
        assertThat(late.dueSource()).contains("runAt for 1 jobs");
    }

    @Test
    void theDueSourceSaysWhichClockWasUsed() {
        assertThat(Lateness.of(List.of(delayed(0, 1_000, 1_000L, 1_020))).dueSource())
                .isEqualTo("due time: the platform's runAt (jobweaver_api.jobs.run_at)");
        assertThat(Lateness.of(List.of(delayed(0, 1_000, null, 1_020))).dueSource())
                .startsWith("due time: the bench's send time + delayMs (no runAt recorded;");
    }
}
