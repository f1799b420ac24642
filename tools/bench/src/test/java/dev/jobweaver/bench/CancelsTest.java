package dev.jobweaver.bench;

import static dev.jobweaver.bench.Fixtures.at;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The cancel workload's figures and correctness, from what the bench and the services recorded of each cancel. */
class CancelsTest {

    /** A waiting job whose cancel was answered 202 at T0 + 100 ms, CANCELLED at the given offsets, never run. */
    static Cancels.Job waiting(long schedulerMs, long visibleMs) {
        return new Cancels.Job(UUID.randomUUID(), Cancels.Kind.WAITING, 202, 4.0, at(100), at(schedulerMs),
                at(visibleMs), "CANCELLED", 0, null, null);
    }

    /** A running job whose cancel was answered 202 at T0 + 100 ms, its run interrupted at T0 + interruptMs. */
    static Cancels.Job running(long schedulerMs, long visibleMs, long interruptMs) {
        return new Cancels.Job(UUID.randomUUID(), Cancels.Kind.RUNNING, 202, 6.0, at(100), at(schedulerMs),
                at(visibleMs), "CANCELLED", 1, at(interruptMs), "WORKER.CANCELLED: the job was cancelled");
    }

    private static Cancels.Group group(Cancels cancels, Cancels.Kind kind) {
        return cancels.groups().stream().filter(g -> g.kind() == kind).findFirst().orElseThrow();
    }

    @Test
    void timesRunFromTheCancelsAnswerToEachServicesRecord() {
        Cancels cancels = Cancels.of(List.of(waiting(110, 130), waiting(120, 150), running(115, 140, 125)));

        assertThat(cancels.groups()).extracting(Cancels.Group::kind)
                .containsExactly(Cancels.Kind.WAITING, Cancels.Kind.RUNNING);
        Cancels.Group waiting = group(cancels, Cancels.Kind.WAITING);
        assertThat(waiting.jobs()).isEqualTo(2);
        assertThat(waiting.toScheduler().max()).isEqualTo(20);
        // a percentile is its histogram bucket's end: at most 0.1% above the value
        assertThat(waiting.toVisible().p50()).isCloseTo(30, within(0.03));
        assertThat(waiting.toVisible().max()).isEqualTo(50);
        assertThat(waiting.answer().p50()).isEqualTo(4);
        assertThat(waiting.toInterrupt()).isEqualTo(Percentiles.EMPTY);
        assertThat(waiting.ran()).isZero();
        assertThat(waiting.notInterrupted()).as("not judged for waiting jobs").isEqualTo(-1);
        Cancels.Group running = group(cancels, Cancels.Kind.RUNNING);
        assertThat(running.toInterrupt().max()).isEqualTo(25);
        assertThat(running.toVisible().max()).isEqualTo(40);
        assertThat(running.notInterrupted()).isZero();
        assertThat(running.ran()).as("not judged for running jobs").isEqualTo(-1);
        assertThat(Cancels.correctness(List.of(waiting(110, 130), running(115, 140, 125))).ok()).isTrue();
    }

    @Test
    void aStatusShownBeforeTheAnswerArrivedCountsNegative() {
        // the API answers once Kafka has the command: the scheduler may apply it before the answer reaches the bench
        Cancels.Group g = group(Cancels.of(List.of(waiting(98, 105))), Cancels.Kind.WAITING);
        assertThat(g.toScheduler().max()).isEqualTo(-2);
        assertThat(g.toVisible().count()).isEqualTo(1);
    }

    @Test
    void aCancelNotAnsweredTwoHundredTwoHasNoTimesAndIsCounted() {
        Cancels.Job refused = new Cancels.Job(UUID.randomUUID(), Cancels.Kind.WAITING, 503, 5.0, at(100), null, null,
                "PENDING", 0, null, null);
        Cancels.Group g = group(Cancels.of(List.of(refused, waiting(110, 120))), Cancels.Kind.WAITING);
        assertThat(g.notAccepted()).isEqualTo(1);
        assertThat(g.notCancelled()).isEqualTo(1);
        assertThat(g.toVisible().count()).isEqualTo(1);
        assertThat(g.answer().count()).as("the time of a 202 only").isEqualTo(1);
        Correctness c = Cancels.correctness(List.of(refused));
        assertThat(c.lost()).isEqualTo(1);
        assertThat(c.examples()).singleElement().asString()
                .endsWith("(cancel waiting): cancel answered 503; ended PENDING, not CANCELLED");
    }

    @Test
    void aWaitingJobThatRanIsUnexpectedEvenWhenCancelled() {
        Cancels.Job ran = new Cancels.Job(UUID.randomUUID(), Cancels.Kind.WAITING, 202, 4.0, at(100), at(110),
                at(120), "CANCELLED", 1, at(200), "WORKER.CANCELLED");
        Cancels.Group g = group(Cancels.of(List.of(ran, waiting(110, 120))), Cancels.Kind.WAITING);
        assertThat(g.ran()).isEqualTo(1);
        assertThat(g.notCancelled()).isZero();
        Correctness c = Cancels.correctness(List.of(ran, waiting(110, 120)));
        assertThat(c.unexpected()).isEqualTo(1);
        assertThat(c.asExpected()).isEqualTo(1);
        assertThat(c.examples()).singleElement().asString().contains("ran 1 time(s) though cancelled while waiting");
    }

    @Test
    void aRunThatFinishedOnItsOwnIsNotInterruptedAndHasNoInterruptTime() {
        Cancels.Job completed = new Cancels.Job(UUID.randomUUID(), Cancels.Kind.RUNNING, 202, 6.0, at(100), null,
                null, "COMPLETED", 1, at(30_000), null);
        Cancels.Job failedOtherwise = new Cancels.Job(UUID.randomUUID(), Cancels.Kind.RUNNING, 202, 6.0, at(100),
                at(110), at(120), "CANCELLED", 1, at(130), "WORKER.TIMEOUT");
        Cancels.Group g = group(Cancels.of(List.of(completed, failedOtherwise, running(110, 120, 130))),
                Cancels.Kind.RUNNING);
        assertThat(g.notInterrupted()).isEqualTo(2);
        assertThat(g.notCancelled()).isEqualTo(1);
        assertThat(g.toInterrupt().count()).isEqualTo(1);
        Correctness c = Cancels.correctness(List.of(completed, failedOtherwise));
        assertThat(c.unexpected()).isEqualTo(2);
        assertThat(c.lost()).isZero();
        assertThat(c.examples().get(0)).contains("ended COMPLETED, not CANCELLED; its attempt did not end "
                + "WORKER.CANCELLED (null)");
        assertThat(c.examples().get(1)).endsWith("its attempt did not end WORKER.CANCELLED (WORKER.TIMEOUT)");
    }

    @Test
    void aRunningJobRunTwiceIsDuplicatedAndOneNeverRunIsSaidSo() {
        Cancels.Job twice = new Cancels.Job(UUID.randomUUID(), Cancels.Kind.RUNNING, 202, 6.0, at(100), at(110),
                at(120), "CANCELLED", 2, at(130), "WORKER.CANCELLED");
        Cancels.Job never = new Cancels.Job(UUID.randomUUID(), Cancels.Kind.RUNNING, 202, 6.0, at(100), at(110),
                at(120), "CANCELLED", 0, null, null);
        Correctness c = Cancels.correctness(List.of(twice, never));
        assertThat(c.duplicated()).isEqualTo(1);
        assertThat(c.unexpected()).isEqualTo(1);
        assertThat(c.examples().get(1)).endsWith("(cancel running): never ran");
    }

    @Test
    void noJobsNoGroups() {
        assertThat(Cancels.of(List.of()).measured()).isFalse();
        assertThat(Cancels.NONE.measured()).isFalse();
        assertThat(Cancels.of(List.of(waiting(110, 120))).groups()).hasSize(1);
    }

    @Test
    void theCancelRunsCorrectnessReplacesTheCompletedJobsOneAndItHasNoStagesNorLateness() {
        List<JobRecord> records = List.of(
                Fixtures.ended(JobKind.NOOP, "CANCELLED", 0, 0).withControl(Control.delayed(60_000), at(60_000),
                        null),
                Fixtures.ended(JobKind.LONG_SLEEPER, "CANCELLED", 1, 1));
        List<Cancels.Job> cancelled = List.of(waiting(110, 120), running(110, 120, 115));
        WorkloadResult r = WorkloadResult.cancelled(new BenchOptions.Run(Workload.CANCEL, 16, "cancel"),
                Fixtures.submission(2), records, cancelled, "note");
        assertThat(Correctness.check(records).ok()).as("CANCELLED is not how a job that must complete ends")
                .isFalse();
        assertThat(r.correctness().ok()).isTrue();
        assertThat(r.correctness().asExpected()).isEqualTo(2);
        assertThat(r.cancels().groups()).hasSize(2);
        assertThat(r.stages()).isEmpty();
        assertThat(r.lateness().measured()).isFalse();
        assertThat(r.ranJobs()).isTrue();
        assertThat(r.note()).isEqualTo("note");
    }
}
