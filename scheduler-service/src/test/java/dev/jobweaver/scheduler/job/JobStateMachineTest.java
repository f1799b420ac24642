package dev.jobweaver.scheduler.job;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.common.job.Priority;
import java.util.List;
import java.util.Map;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jobweaver.common.event.DeadLetterEvent;
import dev.jobweaver.common.event.JobStatusChangedEvent;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.messaging.EventIds;
import dev.jobweaver.scheduler.job.JobStateMachine.Verdict;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class JobStateMachineTest {

    private static final UUID JOB = UUID.fromString("7a0c4f5e-8d62-4c55-9a33-1f2b3c4d5e6f");
    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");
    private static final Instant NOW = Instant.parse("2026-01-01T10:05:00Z");

    @Test
    void dispatchStartsTheNextAttemptWithALease() {
        JobExecution running = JobStateMachine.dispatch(job(JobStatus.PENDING, 0, 0, 2), NOW, NOW.plusSeconds(70));
        assertThat(running.status()).isEqualTo(JobStatus.RUNNING);
        assertThat(running.attempt()).isEqualTo(1);
        assertThat(running.leaseUntil()).isEqualTo(NOW.plusSeconds(70));
        assertThat(running.dispatchedAt()).isEqualTo(NOW);
        assertThat(running.version()).isEqualTo(6);
        assertThatThrownBy(() -> JobStateMachine.dispatch(job(JobStatus.RUNNING, 1, 0, 2), NOW, NOW))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void anOutcomeOfTheRunningAttemptIsApplied() {
        JobExecution running = job(JobStatus.RUNNING, 2, 1, 3);
        assertThat(JobStateMachine.judge(running, completed(2))).isEqualTo(Verdict.APPLY);
        assertThat(JobStateMachine.judge(running, failed(2))).isEqualTo(Verdict.APPLY);
    }

    @Test
    void anOutcomeOfAnotherAttemptOrWithAForeignEventIdIsStale() {
        JobExecution running = job(JobStatus.RUNNING, 2, 1, 3);
        assertThat(JobStateMachine.judge(running, completed(1))).isEqualTo(Verdict.STALE);
        assertThat(JobStateMachine.judge(running, failed(3))).isEqualTo(Verdict.STALE);
        Outcome foreign = new Outcome(Outcome.Kind.COMPLETED, UUID.randomUUID(), JOB, 2, null, T0, NOW, null);
        assertThat(JobStateMachine.judge(running, foreign)).isEqualTo(Verdict.STALE);
        Outcome withoutEventId = new Outcome(Outcome.Kind.COMPLETED, null, JOB, 2, null, T0, NOW, null);
        assertThat(JobStateMachine.judge(running, withoutEventId)).isEqualTo(Verdict.APPLY);
        // Never dispatched: attempt 0 matches no outcome.
        assertThat(JobStateMachine.judge(job(JobStatus.PENDING, 0, 0, 3), failed(1))).isEqualTo(Verdict.STALE);
    }

    @Test
    void aRedeliveredOutcomeOfAnAppliedAttemptIsAlreadyApplied() {
        assertThat(JobStateMachine.judge(job(JobStatus.COMPLETED, 2, 1, 3), completed(2)))
                .isEqualTo(Verdict.ALREADY_APPLIED);
        assertThat(JobStateMachine.judge(job(JobStatus.FAILED, 4, 3, 3), failed(4)))
                .isEqualTo(Verdict.ALREADY_APPLIED);
        assertThat(JobStateMachine.judge(job(JobStatus.PENDING, 2, 2, 3), failed(2)))
                .isEqualTo(Verdict.ALREADY_APPLIED);
    }

    @Test
    void aRunHandedBackUnrunIsPendingAgainWithoutSpendingARetry() {
        JobExecution running = job(JobStatus.RUNNING, 1, 0, 0);
        Outcome handedBack = new Outcome(Outcome.Kind.HANDED_BACK, null, JOB, 1, "WORKER.UNKNOWN_JOB_TYPE: no handler",
                NOW, NOW, null);
        assertThat(JobStateMachine.judge(running, handedBack)).isEqualTo(Verdict.APPLY);

        JobExecution again = JobStateMachine.handBack(running, handedBack.error(), NOW, NOW.plusSeconds(1));

        assertThat(again.status()).isEqualTo(JobStatus.PENDING);
        assertThat(again.retryCount()).as("no retry spent, though none was left").isZero();
        assertThat(again.attempt()).as("the next dispatch is a new attempt").isEqualTo(1);
        assertThat(again.nextRunAt()).isEqualTo(NOW.plusSeconds(1));
        assertThat(again.leaseUntil()).isNull();
        assertThat(again.lastError()).isEqualTo("WORKER.UNKNOWN_JOB_TYPE: no handler");
        assertThat(again.version()).isEqualTo(running.version() + 1);
        assertThat(JobStateMachine.judge(again, handedBack)).as("redelivered").isEqualTo(Verdict.ALREADY_APPLIED);
        assertThat(JobStateMachine.dispatch(again, NOW, NOW.plusSeconds(60)).attempt()).isEqualTo(2);
    }

    @Test
    void aLateSuccessOfAnAttemptWhoseRetryIsNotDispatchedYetIsApplied() {
        JobExecution retryScheduled = job(JobStatus.PENDING, 2, 2, 3);
        assertThat(JobStateMachine.judge(retryScheduled, completed(2))).isEqualTo(Verdict.APPLY);
        JobExecution done = JobStateMachine.complete(retryScheduled, completed(2), NOW);
        assertThat(done.status()).isEqualTo(JobStatus.COMPLETED);
        assertThat(done.version()).isEqualTo(retryScheduled.version() + 1);
    }

    @Test
    void aFailureWithRetriesLeftGoesBackToPendingAfterTheDelay() {
        JobExecution running = job(JobStatus.RUNNING, 1, 0, 2);
        JobExecution next = JobStateMachine.fail(running, "boom", T0, NOW, Duration.ofSeconds(5));
        assertThat(next).extracting(JobExecution::status, JobExecution::retryCount, JobExecution::attempt,
                        JobExecution::nextRunAt, JobExecution::leaseUntil, JobExecution::lastError,
                        JobExecution::startedAt, JobExecution::version)
                .containsExactly(JobStatus.PENDING, 1, 1, NOW.plusSeconds(5), null, "boom", T0, running.version() + 1);
        assertThat(JobStateMachine.isDeadLetter(next)).isFalse();
    }

    @Test
    void maxRetriesCountsRetriesAfterTheFirstAttempt() {
        // maxRetries 2: attempts 1, 2 and 3; the failure of the third is final.
        JobExecution third = job(JobStatus.RUNNING, 3, 2, 2);
        JobExecution failed = JobStateMachine.fail(third, "still broken", T0, NOW, Duration.ofSeconds(20));
        assertThat(failed.status()).isEqualTo(JobStatus.FAILED);
        assertThat(failed.retryCount()).isEqualTo(2);
        assertThat(failed.finishedAt()).isEqualTo(NOW);
        assertThat(JobStateMachine.isDeadLetter(failed)).isTrue();
        DeadLetterEvent deadLetter = JobStateMachine.deadLetter(failed);
        assertThat(deadLetter).isEqualTo(new DeadLetterEvent(JOB, "still broken", 2, NOW, "trace",
                JobControl.DEFAULT_TENANT, null));

        JobExecution second = job(JobStatus.RUNNING, 2, 1, 2);
        assertThat(JobStateMachine.fail(second, "x", T0, NOW, Duration.ofSeconds(10)).status())
                .isEqualTo(JobStatus.PENDING);
        assertThat(JobStateMachine.fail(job(JobStatus.RUNNING, 1, 0, 0), "x", T0, NOW, Duration.ZERO).status())
                .isEqualTo(JobStatus.FAILED);
    }

    @Test
    void statusEventsCarryTheRowVersionAndANextRunOnlyWhenPending() {
        JobExecution pending = JobStateMachine.fail(job(JobStatus.RUNNING, 1, 0, 2), "boom", T0, NOW,
                Duration.ofSeconds(5));
        JobStatusChangedEvent event = JobStateMachine.statusEvent(pending);
        assertThat(event.version()).isEqualTo(pending.version());
        assertThat(event.status()).isEqualTo(JobStatus.PENDING);
        assertThat(event.nextRunAt()).isEqualTo(NOW.plusSeconds(5));
        assertThat(event.attempts()).isEqualTo(1);
        assertThat(event.changedAt()).isEqualTo(NOW);
        assertThat(JobStateMachine.statusEvent(job(JobStatus.RUNNING, 1, 0, 2)).nextRunAt()).isNull();
    }

    @Test
    void everyTransitionIncrementsTheVersionAndTerminalStatesDoNotMove() {
        JobExecution pending = job(JobStatus.PENDING, 0, 0, 1);
        JobExecution running = JobStateMachine.dispatch(pending, NOW, NOW.plusSeconds(60));
        JobExecution completed = JobStateMachine.complete(running, completed(1), NOW);
        assertThat(running.version()).isEqualTo(pending.version() + 1);
        assertThat(completed.version()).isEqualTo(running.version() + 1);
        assertThatThrownBy(() -> JobStateMachine.complete(completed, completed(1), NOW))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> JobStateMachine.fail(completed, "x", T0, NOW, Duration.ZERO))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aCancelEndsAPendingOrRunningJobWithoutItsLeaseKeepingItsLastError() {
        JobExecution retryWaiting = new JobExecution(JOB, "SIMULATION", "trace", null, "{}", JobStatus.PENDING, 1, 3,
                1, NOW.plusSeconds(30), null, "boom", T0, T0, T0, T0, null, 5, JobControl.DEFAULTS, null);
        JobExecution cancelled = JobStateMachine.cancel(retryWaiting, NOW);
        assertThat(cancelled.status()).isEqualTo(JobStatus.CANCELLED);
        assertThat(cancelled.version()).isEqualTo(6);
        assertThat(cancelled.finishedAt()).isEqualTo(NOW);
        assertThat(cancelled.updatedAt()).isEqualTo(NOW);
        assertThat(cancelled.attempt()).isEqualTo(1);
        JobStatusChangedEvent status = JobStateMachine.statusEvent(cancelled);
        assertThat(status.lastError()).isEqualTo("boom");
        assertThat(status.nextRunAt()).isNull();
        assertThat(status.finishedAt()).isEqualTo(NOW);

        JobExecution running = JobStateMachine.cancel(job(JobStatus.RUNNING, 2, 1, 3), NOW);
        assertThat(running.status()).isEqualTo(JobStatus.CANCELLED);
        assertThat(running.leaseUntil()).isNull();
        assertThat(running.version()).isEqualTo(6);
    }

    @Test
    void aFinishedJobCannotBeCancelled() {
        for (JobStatus finished : List.of(JobStatus.COMPLETED, JobStatus.FAILED, JobStatus.CANCELLED)) {
            assertThat(JobStateMachine.isCancellable(job(finished, 1, 0, 0))).as("%s", finished).isFalse();
            assertThatThrownBy(() -> JobStateMachine.cancel(job(finished, 1, 0, 0), NOW))
                    .isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void anyOutcomeOfACancelledJobIsIgnored() {
        JobExecution cancelled = JobStateMachine.cancel(job(JobStatus.RUNNING, 2, 1, 3), NOW);
        assertThat(JobStateMachine.judge(cancelled, completed(2))).isEqualTo(Verdict.CANCELLED);
        assertThat(JobStateMachine.judge(cancelled, failed(2))).isEqualTo(Verdict.CANCELLED);
        assertThat(JobStateMachine.judge(cancelled, completed(1))).isEqualTo(Verdict.CANCELLED);
        // A job waiting for its retry, whose late success would otherwise complete it.
        JobExecution retryCancelled = JobStateMachine.cancel(job(JobStatus.PENDING, 2, 2, 3), NOW);
        assertThat(JobStateMachine.judge(retryCancelled, completed(2))).isEqualTo(Verdict.CANCELLED);
    }

    private static Outcome completed(int attempt) {
        return new Outcome(Outcome.Kind.COMPLETED, EventIds.runEventId(JOB, attempt), JOB, attempt, null, T0, NOW, null);
    }

    private static Outcome failed(int attempt) {
        return new Outcome(Outcome.Kind.FAILED, EventIds.runEventId(JOB, attempt), JOB, attempt, "boom", T0, NOW, null);
    }

    @Test
    void aRequeueMovesAFailedJobOnlyFromTheFailureItNames() {
        Instant failedAt = Instant.parse("2026-01-01T10:01:02.123456Z");
        JobExecution failed = new JobExecution(JOB, "SIMULATION", "trace", null, "{}", JobStatus.FAILED, 2, 2, 3, T0,
                null, "boom", T0, failedAt, T0, T0, failedAt, 5, JobControl.DEFAULTS, null);

        assertThat(JobStateMachine.isRequeueable(failed, failedAt)).isTrue();
        assertThat(JobStateMachine.isRequeueable(failed, null)).as("a command naming no failure").isTrue();
        assertThat(JobStateMachine.isRequeueable(failed, failedAt.plusNanos(789)))
                .as("nanoseconds past PostgreSQL's microseconds").isTrue();
        assertThat(JobStateMachine.isRequeueable(failed, failedAt.minusSeconds(60))).as("an earlier failure")
                .isFalse();
        assertThat(JobStateMachine.isRequeueable(job(JobStatus.PENDING, 3, 0, 2), null)).isFalse();
        assertThat(JobStateMachine.isRequeueable(job(JobStatus.COMPLETED, 3, 0, 2), failedAt)).isFalse();
    }

    @Test
    void aNodeJobCancelledIsRequeuedOnlyByACommandNamingNoFailure() {
        JobExecution cancelled = JobStateMachine.cancel(job(JobStatus.RUNNING, 2, 1, 3), NOW);
        assertThat(JobStateMachine.isNodeRequeueable(cancelled, null)).as("its run's retry").isTrue();
        assertThat(JobStateMachine.isNodeRequeueable(cancelled, NOW)).as("a client's requeue names a failure")
                .isFalse();
        assertThat(JobStateMachine.isRequeueable(cancelled, null)).as("a job of no workflow").isFalse();
        assertThat(JobStateMachine.isNodeRequeueable(job(JobStatus.COMPLETED, 3, 0, 2), null)).isFalse();
        assertThat(JobStateMachine.isNodeRequeueable(job(JobStatus.RUNNING, 3, 0, 2), null)).isFalse();
        assertThat(JobStateMachine.isNodeRequeueable(job(JobStatus.FAILED, 3, 2, 2), null)).isTrue();
    }

    @Test
    void aCancelledJobRequeuedNumbersItsNextAttemptAfterItsLast() {
        JobExecution cancelled = JobStateMachine.cancel(job(JobStatus.RUNNING, 2, 1, 3), NOW);
        Instant later = NOW.plusSeconds(60);
        JobExecution requeued = JobStateMachine.requeue(cancelled, cancelled.instruction(), 3, later);
        assertThat(requeued.status()).isEqualTo(JobStatus.PENDING);
        assertThat(requeued.attempt()).isEqualTo(2);
        assertThat(requeued.retryCount()).isZero();
        assertThat(requeued.nextRunAt()).isEqualTo(later);
        assertThat(requeued.finishedAt()).isNull();
        assertThat(requeued.version()).isEqualTo(cancelled.version() + 1);
        JobExecution dispatched = JobStateMachine.dispatch(requeued, later, later.plusSeconds(30));
        assertThat(dispatched.attempt()).isEqualTo(3);
        assertThatThrownBy(() -> JobStateMachine.requeue(job(JobStatus.COMPLETED, 1, 0, 0), "{}", 0, later))
                .isInstanceOf(IllegalStateException.class);
    }

    private static JobExecution job(JobStatus status, int attempt, int retryCount, int maxRetries) {
        return new JobExecution(JOB, "SIMULATION", "trace", null, "{}", status, retryCount, maxRetries, attempt,
                T0, status == JobStatus.RUNNING ? T0.plusSeconds(60) : null, null, T0, T0, null, null, null, 5,
                JobControl.DEFAULTS, null);
    }

    @Test
    void aSuccessKeepsItsResultAndTheCompletedStatusCarriesIt() {
        JsonNode result = JsonNodeFactory.instance.objectNode().put("status", 200);
        Outcome success = new Outcome(Outcome.Kind.COMPLETED, EventIds.runEventId(JOB, 1), JOB, 1, null, T0, NOW,
                result);
        JobExecution completed = JobStateMachine.complete(job(JobStatus.RUNNING, 1, 0, 0), success, NOW);
        assertThat(completed.result()).isEqualTo(result);
        assertThat(JobStateMachine.statusEvent(completed).result()).isEqualTo(result);
        // Other states carry none.
        assertThat(JobStateMachine.statusEvent(job(JobStatus.RUNNING, 1, 0, 0).withResult(result)).result()).isNull();
    }

    @Test
    void aRunCarriesTheJobsControlAndADeadLetterItsTenantAndLabels() {
        JobControl control = new JobControl(Priority.HIGH, T0, 1_000L, List.of(10L), "acme", Map.of("team", "blue"));
        JobExecution pending = withControl(job(JobStatus.PENDING, 0, 0, 0), control);
        JobExecution running = JobStateMachine.dispatch(pending, NOW, NOW.plusSeconds(61));
        RunJobEvent run = JobStateMachine.runEvent(running, JsonNodeFactory.instance.objectNode());
        assertThat(run.control()).isEqualTo(control);

        JobExecution failed = JobStateMachine.fail(running, "boom", T0, NOW, Duration.ZERO);
        DeadLetterEvent deadLetter = JobStateMachine.deadLetter(failed);
        assertThat(deadLetter.tenant()).isEqualTo("acme");
        assertThat(deadLetter.labels()).isEqualTo(Map.of("team", "blue"));
    }

    private static JobExecution withControl(JobExecution j, JobControl control) {
        return new JobExecution(j.jobId(), j.jobType(), j.traceId(), j.traceparent(), j.instruction(), j.status(),
                j.retryCount(), j.maxRetries(), j.attempt(), j.nextRunAt(), j.leaseUntil(), j.lastError(),
                j.createdAt(), j.updatedAt(), j.dispatchedAt(), j.startedAt(), j.finishedAt(), j.version(), control,
                j.result());
    }
}
