package dev.jobweaver.worker.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.common.job.HttpCallPayload;
import dev.jobweaver.common.job.JobCommand;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.job.Payloads;
import dev.jobweaver.worker.command.StoppedJobs;
import dev.jobweaver.worker.handler.HandlerRegistry;
import dev.jobweaver.sdk.JobFailure;
import dev.jobweaver.sdk.JobHandler;
import dev.jobweaver.sdk.RunContext;
import dev.jobweaver.worker.handler.RunResult;
import dev.jobweaver.worker.testing.RunSettings;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * An attempt through its handler: the handler of its type, its result checked, its deadline the job's timeoutMs (or
 * the derived bound) and enforced by interrupting a handler that ignores it, and a cancel of its job by the same
 * interrupt, or before the handler is called.
 */
class AttemptExecutorTest {

    private static final HttpCallPayload CALL = new HttpCallPayload("GET", "https://example.com/", null, null, null,
            2_000L);

    @Test
    void aTypeWithoutAHandlerFailsWithUnknownJobType() {
        AttemptExecutor executor = executor(new Fake(JobType.SIMULATION, run -> null));

        RunResult result = executor.run(event(null), null);

        assertThat(result.success()).isFalse();
        assertThat(result.errorMessage())
                .isEqualTo("WORKER.UNKNOWN_JOB_TYPE: this worker has no handler for job type HTTP (it runs [SIMULATION])");
    }

    @Test
    void aHandlerIgnoringItsDeadlineIsInterruptedAtTheJobsTimeoutAndFailsWithTimeout() {
        AtomicBoolean interrupted = new AtomicBoolean();
        AttemptExecutor executor = executor(new Fake(JobType.HTTP, run -> {
            try {
                new CountDownLatch(1).await(); // never counted down: only an interrupt ends it
            } catch (InterruptedException e) {
                interrupted.set(true);
                throw e;
            }
            return null;
        }));

        long started = System.nanoTime();
        RunResult result = executor.run(event(300L), null);
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(interrupted).isTrue();
        assertThat(result.success()).isFalse();
        assertThat(result.errorMessage()).isEqualTo("WORKER.TIMEOUT: the attempt ran longer than its timeoutMs of 300 ms");
        assertThat(took).isBetween(Duration.ofMillis(290), Duration.ofSeconds(5));
        assertThat(Thread.currentThread().isInterrupted()).as("the alarm's interrupt does not outlive the attempt")
                .isFalse();
    }

    @Test
    void aFailureAfterTheAlarmIsReportedAsTheTimeoutWhateverTheHandlerSaid() {
        AttemptExecutor executor = executor(new Fake(JobType.HTTP, run -> {
            try {
                Thread.sleep(10_000);
            } catch (InterruptedException e) {
                throw new JobFailure("connection reset"); // a handler that turns the interrupt into its own failure
            }
            return null;
        }));

        RunResult result = executor.run(event(200L), null);

        assertThat(result.errorMessage()).startsWith("WORKER.TIMEOUT");
    }

    @Test
    void anAttemptThatEndsInTimeIsNeverInterruptedAfterwards() throws InterruptedException {
        AttemptExecutor executor = executor(new Fake(JobType.HTTP, run -> null));

        RunResult result = executor.run(event(100L), null);
        Thread.sleep(400); // past the attempt's deadline: a stray alarm would interrupt this sleep

        assertThat(result.success()).isTrue();
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }

    @Test
    void theHandlerGetsThePayloadAsItsRecordAndTheDeadlineOfTheTimeout() {
        AtomicReference<RunContext<HttpCallPayload>> seen = new AtomicReference<>();
        AttemptExecutor executor = executor(new Fake(JobType.HTTP, run -> {
            seen.set(run);
            return null;
        }));
        RunJobEvent event = event(5_000L);

        executor.run(event, "0af7651916cd43dd8448eb211c80319c");

        RunContext<HttpCallPayload> run = seen.get();
        assertThat(run.payload()).isEqualTo(CALL);
        assertThat(run.jobId()).isEqualTo(event.jobId());
        assertThat(run.attempt()).isEqualTo(1);
        assertThat(run.traceId()).isEqualTo("0af7651916cd43dd8448eb211c80319c");
        assertThat(run.deadline().length()).isEqualTo(Duration.ofSeconds(5));
        assertThat(run.deadline().fromTimeoutMs()).isTrue();
    }

    @Test
    void theBoundIsTheJobsTimeoutOrElseTheExpectedDurationPlusTheSlack() {
        AttemptExecutor executor = executor(new Fake(JobType.HTTP, run -> null));

        assertThat(executor.bound(event(700L))).isEqualTo(Duration.ofMillis(700));
        // 2 s of request timeout (the fake expects the payload's timeoutMs) + 30 s of slack
        assertThat(executor.bound(event(null))).isEqualTo(Duration.ofSeconds(32));
    }

    @Test
    void aResultIsReturnedAndOneThatCannotBeStoredFailsTheAttempt() {
        ObjectNode small = JsonNodeFactory.instance.objectNode().put("status", 200);
        ObjectNode large = JsonNodeFactory.instance.objectNode().put("body", "x".repeat(70_000));
        ObjectNode nul = JsonNodeFactory.instance.objectNode().put("body", "a\u0000b");

        RunResult ok = executor(new Fake(JobType.HTTP, run -> small)).run(event(null), null);
        RunResult tooLarge = executor(new Fake(JobType.HTTP, run -> large)).run(event(null), null);
        RunResult withNul = executor(new Fake(JobType.HTTP, run -> nul)).run(event(null), null);
        RunResult jsonNull = executor(new Fake(JobType.HTTP, run -> JsonNodeFactory.instance.nullNode()))
                .run(event(null), null);

        assertThat(ok.success()).isTrue();
        assertThat(ok.result()).isEqualTo(small);
        assertThat(tooLarge.success()).isFalse();
        assertThat(tooLarge.errorMessage())
                .isEqualTo("HTTP handler reported a result it may not: it is larger than 65536 bytes of JSON");
        assertThat(withNul.errorMessage()).isEqualTo("HTTP handler reported a result it may not: it holds the NUL"
                + " character (U+0000), which the database cannot store");
        assertThat(jsonNull.success()).isTrue();
        assertThat(jsonNull.result()).isNull();
    }

    @Test
    void aRunStartedAfterTheWatchdogStoppedStillRunsOnItsOwnDeadline() {
        AttemptExecutor executor = executor(new Fake(JobType.HTTP, run -> {
            Thread.sleep(run.deadline().remainingNanos() / 1_000_000);
            throw new JobFailure(run.deadline().exceeded());
        }));
        executor.stop();

        RunResult result = executor.run(event(100L), null);

        assertThat(result.errorMessage()).isEqualTo("WORKER.TIMEOUT: the attempt ran longer than its timeoutMs of 100 ms");
    }

    @Test
    void aHandlerThatThrowsFailsTheAttemptWithTheReason() {
        RunResult result = executor(new Fake(JobType.HTTP, run -> {
            throw new IllegalStateException("bug in the handler");
        })).run(event(null), null);

        assertThat(result.success()).isFalse();
        assertThat(result.errorMessage())
                .isEqualTo("HTTP handler failed unexpectedly: java.lang.IllegalStateException: bug in the handler");
    }

    @Test
    void aCancelInterruptsTheRunningHandlerAtOnceAndFailsItWithCancelled() throws Exception {
        CountDownLatch running = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        StoppedJobs stopped = stoppedJobs();
        AttemptExecutor executor = executor(new Fake(JobType.HTTP, run -> {
            running.countDown();
            try {
                new CountDownLatch(1).await(); // only an interrupt ends it
            } catch (InterruptedException e) {
                interrupted.set(true);
                throw e;
            }
            return null;
        }), stopped);
        RunJobEvent event = event(30_000L);
        AtomicReference<RunResult> result = new AtomicReference<>();
        AtomicBoolean flagAfter = new AtomicBoolean(true);
        Thread run = Thread.ofVirtual().start(() -> {
            result.set(executor.run(event, null));
            flagAfter.set(Thread.currentThread().isInterrupted());
        });
        running.await();

        long cancelled = System.nanoTime();
        stopped.record(event.jobId(), JobCommand.CANCEL, Instant.now());
        assertThat(executor.cancel(event.jobId())).isTrue();
        run.join(Duration.ofSeconds(5));

        // at once: seconds of room for a starved machine, the handler itself would never end
        assertThat(Duration.ofNanos(System.nanoTime() - cancelled)).isLessThan(Duration.ofSeconds(3));
        assertThat(interrupted).isTrue();
        assertThat(result.get().success()).isFalse();
        assertThat(result.get().cancel()).isEqualTo(RunResult.Cancel.WHILE_RUNNING);
        assertThat(result.get().errorMessage())
                .isEqualTo("WORKER.CANCELLED: the job was cancelled while the attempt ran");
        assertThat(flagAfter).as("the cancel's interrupt does not outlive the attempt").isFalse();
    }

    @Test
    void aHandlerThatFinishesDespiteTheCancelStillEndsCancelled() throws Exception {
        CountDownLatch running = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        AttemptExecutor executor = executor(new Fake(JobType.HTTP, run -> {
            running.countDown();
            try {
                new CountDownLatch(1).await(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                interrupted.set(true); // a handler that swallows the interrupt and reports success
            }
            return JsonNodeFactory.instance.objectNode().put("done", true);
        }));
        RunJobEvent event = event(null);
        AtomicReference<RunResult> result = new AtomicReference<>();
        Thread run = Thread.ofVirtual().start(() -> result.set(executor.run(event, null)));
        running.await();

        executor.cancel(event.jobId());
        run.join(Duration.ofSeconds(10));

        assertThat(interrupted).isTrue();
        assertThat(result.get().success()).isFalse();
        assertThat(result.get().errorMessage()).startsWith("WORKER.CANCELLED");
    }

    @Test
    void anAttemptOfAJobCancelledBeforeItStartsFailsWithoutCallingTheHandler() {
        AtomicBoolean called = new AtomicBoolean();
        StoppedJobs stopped = stoppedJobs();
        AttemptExecutor executor = executor(new Fake(JobType.HTTP, run -> {
            called.set(true);
            return null;
        }), stopped);
        RunJobEvent event = event(null);
        stopped.record(event.jobId(), JobCommand.CANCEL, Instant.now());

        RunResult result = executor.run(event, null);

        assertThat(called).isFalse();
        assertThat(result.cancel()).isEqualTo(RunResult.Cancel.BEFORE_START);
        assertThat(result.errorMessage()).isEqualTo("WORKER.CANCELLED: the job was cancelled before the attempt started");
    }

    @Test
    void aCancelOfAJobNotRunningHereInterruptsNothing() throws InterruptedException {
        AttemptExecutor executor = executor(new Fake(JobType.HTTP, run -> null));
        RunJobEvent event = event(null);
        executor.run(event, null);

        assertThat(executor.cancel(event.jobId())).isFalse();
        assertThat(executor.cancel(UUID.randomUUID())).isFalse();
        Thread.sleep(50);
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }

    private static StoppedJobs stoppedJobs() {
        return new StoppedJobs(Clock.systemUTC(), Duration.ofHours(1), 100);
    }

    private static AttemptExecutor executor(Fake handler, StoppedJobs stopped) {
        return new AttemptExecutor(new HandlerRegistry(List.of(new HandlerRegistry.Named(handler, "fake"))),
                RunSettings.defaults(), stopped);
    }

    private static AttemptExecutor executor(Fake handler) {
        return new AttemptExecutor(new HandlerRegistry(List.of(new HandlerRegistry.Named(handler, "fake"))),
                RunSettings.defaults());
    }

    /** An HTTP run of {@link #CALL}; with {@code timeoutMs} null, the control of an event from before job control. */
    private static RunJobEvent event(Long timeoutMs) {
        UUID jobId = UUID.randomUUID();
        JobControl control = timeoutMs == null ? null : new JobControl(null, null, timeoutMs, null, null, null);
        return new RunJobEvent(UUID.randomUUID(), jobId, 1, JobType.HTTP, Payloads.tree(CALL), null, Instant.now(),
                Instant.now(), Instant.now().plusSeconds(600), control);
    }

    /** What a fake handler does with its run. */
    @FunctionalInterface
    private interface Body {
        JsonNode run(RunContext<HttpCallPayload> run) throws JobFailure, InterruptedException;
    }

    /** A handler of {@code type} for HTTP payloads whose attempt is {@code body}. */
    private record Fake(String type, Body body) implements JobHandler<HttpCallPayload> {

        Fake(JobType type, Body body) {
            this(type.name(), body);
        }

        @Override
        public Class<HttpCallPayload> payloadType() {
            return HttpCallPayload.class;
        }

        @Override
        public Duration expectedDuration(HttpCallPayload payload) {
            return Duration.ofMillis(payload.timeoutMs());
        }

        @Override
        public JsonNode run(RunContext<HttpCallPayload> run) throws JobFailure, InterruptedException {
            return body.run(run);
        }
    }
}
