package dev.jobweaver.worker.handler.simulation;

import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.worker.handler.RunResult;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.common.job.JobPayload;
import dev.jobweaver.common.job.Step;
import dev.jobweaver.worker.testing.CollectingSpanExporter;
import dev.jobweaver.worker.testing.TestTrace;
import dev.jobweaver.worker.testing.WorkerKafka;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import dev.jobweaver.worker.testing.RunSettings;

/** Steps run in order, each in a span of the job's trace (continued from the record's traceparent), and in bounds. */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_worker")
class StepExecutorTest {

    @Inject
    CollectingSpanExporter spans;

    @Inject
    StepExecutor steps;

    @Test
    void eachStepIsASpanOfTheJobsTraceContinuedFromTheRecord() {
        TestTrace sent = TestTrace.random();
        RunJobEvent run = sent.on(WorkerKafka.run(new Step.Log("traced"), new Step.Sleep(20L), new Step.Compute(100L)));
        try (WorkerKafka kafka = new WorkerKafka()) {
            kafka.sendInTrace(run, sent.traceparent());
        }

        List<SpanData> exported = await().atMost(Duration.ofSeconds(60))
                .until(() -> spans.trace(sent.traceId()),
                        l -> l.stream().filter(x -> x.getName().startsWith("step ")).count() == 3
                                && l.stream().anyMatch(x -> x.getName().equals("run job")));
        Map<String, SpanData> byName = exported.stream()
                .collect(Collectors.toMap(SpanData::getName, Function.identity(), (a, b) -> a));
        SpanData runSpan = byName.get("run job");
        assertThat(runSpan).as("the run's span, in the record's trace").isNotNull();
        assertThat(List.of("step 1 LOG", "step 2 SLEEP", "step 3 COMPUTE")).allSatisfy(name -> {
            SpanData step = byName.get(name);
            assertThat(step).as(name).isNotNull();
            assertThat(step.getParentSpanId()).isEqualTo(runSpan.getSpanId());
            assertThat(step.getAttributes().get(AttributeKey.booleanKey("jobweaver.step.virtual_thread"))).isTrue();
        });
        // In order: each step starts after the previous one ended.
        assertThat(byName.get("step 2 SLEEP").getStartEpochNanos()).isGreaterThanOrEqualTo(byName.get("step 1 LOG").getEndEpochNanos());
        assertThat(byName.get("step 3 COMPUTE").getStartEpochNanos()).isGreaterThanOrEqualTo(byName.get("step 2 SLEEP").getEndEpochNanos());
        // The trace goes back to the span that published the record.
        assertThat(exported).anySatisfy(x -> assertThat(x.getParentSpanId()).isEqualTo(sent.parentSpanId()));
    }

    @Test
    void anInterruptedRunStartsNoFurtherStep() throws InterruptedException {
        AtomicReference<RunResult> result = new AtomicReference<>();
        AtomicBoolean flagKept = new AtomicBoolean();
        Thread run = Thread.ofVirtual().start(() -> {
            // As a cancel leaves it during a step that does not wait: the next step, a FAIL, must not start.
            Thread.currentThread().interrupt();
            result.set(steps.run(UUID.randomUUID(), 1, List.of(new Step.Fail("the step ran")),
                    RunSettings.defaults().timeBoundSlack()));
            flagKept.set(Thread.currentThread().isInterrupted());
        });
        run.join(Duration.ofSeconds(10));

        assertThat(result.get().success()).isFalse();
        assertThat(result.get().errorMessage()).isEqualTo(RunResult.WORKER_STOPPED_MESSAGE);
        assertThat(flagKept).as("the interrupt is left for the caller, which names its reason").isTrue();
    }

    @Test
    void aFailStepWithTimesFailsOnlyTheFirstAttempts() {
        List<Step> flaky = List.of(new Step.Log("before"), new Step.Fail("flaky dependency", 1), new Step.Log("after"));

        RunResult first = steps.run(java.util.UUID.randomUUID(), 1, flaky, Duration.ofSeconds(5));
        RunResult second = steps.run(java.util.UUID.randomUUID(), 2, flaky, Duration.ofSeconds(5));
        RunResult always = steps.run(java.util.UUID.randomUUID(), 5, List.of(new Step.Fail("always")),
                Duration.ofSeconds(5));

        assertThat(first.errorMessage()).isEqualTo("flaky dependency");
        assertThat(second.success()).isTrue();
        assertThat(second.errorMessage()).isNull();
        assertThat(always.errorMessage()).isEqualTo("always");
    }

    @Test
    void aRunPastItsTimeBoundFailsInsteadOfHoldingTheWorker() {
        long started = System.nanoTime();
        RunResult result = steps.run(java.util.UUID.randomUUID(), 1,
                List.of(new Step.Log("start"), new Step.Sleep(60_000L), new Step.Log("never")), Duration.ofMillis(300));
        assertThat(result.success()).isFalse();
        assertThat(result.errorMessage()).isEqualTo("run exceeded its time bound of 300 ms");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void aStepThatThrowsFailsTheAttemptWithTheReason() {
        RunResult result = steps.run(java.util.UUID.randomUUID(), 1, java.util.Arrays.asList(new Step.Log("ok"), null),
                Duration.ofSeconds(5));
        assertThat(result.success()).isFalse();
        assertThat(result.errorMessage()).isEqualTo("step 2 is empty");
        RunResult missing = steps.run(java.util.UUID.randomUUID(), 1, List.of(new Step.Sleep(null)), Duration.ofSeconds(5));
        assertThat(missing.errorMessage()).isEqualTo("step 1 has no valid durationMs: null");
    }

    @Test
    void theExpectedDurationComesFromTheSteps() {
        JobPayload payload = new JobPayload(List.of(new Step.Sleep(1_000L), new Step.HttpCall("x", 2_000L),
                new Step.Compute(1_000_000L), new Step.Log("x")));
        Duration expected = SimulationHandler.stepsDuration(payload.steps(),
                RunSettings.defaults().computeNanosPerIteration());
        // 1 s + 2 s + 1 000 000 x 20 ns; the attempt's bound adds the slack (AttemptExecutorTest)
        assertThat(expected).isEqualTo(Duration.ofMillis(3_020));
    }
}
