package dev.jobweaver.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.e2e.support.E2ePlatform;
import dev.jobweaver.e2e.support.HealthyPlatform;
import dev.jobweaver.e2e.support.JobWeaverClient;
import dev.jobweaver.e2e.support.Jobs;
import dev.jobweaver.e2e.support.TraceViewer;
import dev.jobweaver.local.Zipkin;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Scenario 9: the traceId a job is answered with names one trace, in a real trace viewer (Zipkin), that holds spans
 * from all three services, including one per step.
 */
@HealthyPlatform
class TraceContinuityIT {

    @Test
    void oneTraceSpansTheApiTheSchedulerAndTheWorkerSteps() throws Exception {
        JobWeaverClient api = E2ePlatform.api();
        UUID id = api.submitAccepted(Jobs.everyStep());
        JsonNode job = api.awaitAll(List.of(id), JobWeaverClient::terminal, Duration.ofSeconds(60)).get(id);
        assertThat(job.path("status").asText()).isEqualTo("COMPLETED");
        String traceId = job.path("traceId").asText();
        assertThat(traceId).matches("[0-9a-f]{32}");

        Zipkin zipkin = E2ePlatform.get().zipkin().orElseThrow();
        TraceViewer traces = new TraceViewer(zipkin.apiUrl());
        Set<String> services = new TreeSet<>();
        JsonNode spans = null;
        long stepSpans = 0;
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        // Span batches are exported every few seconds, and a service's spans may come in more than one batch (the
        // worker's receive span ends before its steps run): poll until all three services and every step have
        // reported, or the deadline.
        while (System.nanoTime() < deadline && (services.size() < 3 || stepSpans < 4)) {
            Optional<JsonNode> read = traces.spans(traceId);
            if (read.isPresent()) {
                spans = read.get();
                services.clear();
                spans.forEach(span -> services.add(serviceOf(span)));
                stepSpans = workerStepSpans(spans);
            }
            E2ePlatform.awaitQuietly(500);
        }

        assertThat(services).as("services in trace " + traceId)
                .anyMatch(s -> s.contains("api"))
                .anyMatch(s -> s.contains("scheduler"))
                .anyMatch(s -> s.contains("worker"));
        assertThat(stepSpans).as("one worker span per step").isGreaterThanOrEqualTo(4);
        System.out.printf("[measure] scenario 9: trace %s has %d spans from %s (%d step spans)%n", traceId,
                spans.size(), services, stepSpans);
    }

    private static long workerStepSpans(JsonNode spans) {
        long steps = 0;
        for (JsonNode span : spans) {
            if (serviceOf(span).contains("worker") && span.path("name").asText().toLowerCase().contains("step")) {
                steps++;
            }
        }
        return steps;
    }

    private static String serviceOf(JsonNode span) {
        return span.path("localEndpoint").path("serviceName").asText();
    }
}
