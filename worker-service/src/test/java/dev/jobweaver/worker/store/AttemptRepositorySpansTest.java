package dev.jobweaver.worker.store;

import static dev.jobweaver.worker.store.TestAttempts.TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.worker.testing.CollectingSpanExporter;
import dev.jobweaver.worker.testing.TestTrace;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The spans of {@link AttemptRepository}: a run whose span records gets an {@code execution_attempts begin} and a
 * {@code finish} child, each spanning its call; a run whose trace is sampled out gets none, as before.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_worker")
class AttemptRepositorySpansTest {


    @Inject
    AttemptRepository attempts;

    @Inject
    Tracer tracer;

    @Inject
    CollectingSpanExporter spans;

    @Test
    void aSampledOutRunHasNoAttemptSpansARecordingOneHasBothAsChildren() {
        TestTrace unsampled = TestTrace.random();
        try (Scope ignored = Span.wrap(unsampled.unsampledParent()).makeCurrent()) {
            beginAndFinish();
        }

        Span run = tracer.spanBuilder("test run").startSpan();
        try (Scope ignored = run.makeCurrent()) {
            beginAndFinish();
        } finally {
            run.end();
        }

        String trace = run.getSpanContext().getTraceId();
        List<SpanData> exported = await().atMost(Duration.ofSeconds(30))
                .until(() -> spans.trace(trace), l -> l.size() == 3);
        assertThat(exported).filteredOn(s -> !s.getName().equals("test run"))
                .extracting(SpanData::getName)
                .containsExactlyInAnyOrder("execution_attempts begin", "execution_attempts finish");
        assertThat(exported).filteredOn(s -> !s.getName().equals("test run"))
                .allSatisfy(s -> assertThat(s.getParentSpanId()).isEqualTo(run.getSpanContext().getSpanId()));
        // Spans are exported in the order they end, so the unsampled run's would have come before these.
        assertThat(spans.trace(unsampled.traceId())).isEmpty();
    }

    private void beginAndFinish() {
        ExecutionAttempt attempt = TestAttempts.running(1, null);
        assertThat(attempts.begin(attempt, TIMEOUT).created()).isTrue();
        assertThat(attempts.finish(attempt.eventId(), ExecutionOutcome.SUCCESS, null, Instant.now(), TIMEOUT).outcome())
                .isEqualTo(ExecutionOutcome.SUCCESS);
    }
}
