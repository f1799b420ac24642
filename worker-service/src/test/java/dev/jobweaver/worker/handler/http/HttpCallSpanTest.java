package dev.jobweaver.worker.handler.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.common.job.HttpCallPayload;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.worker.testing.CollectingSpanExporter;
import dev.jobweaver.worker.testing.TestTrace;
import dev.jobweaver.worker.testing.WorkerKafka;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** An HTTP job's call is a client span of the job's trace, and carries no trace context to the destination. */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_worker")
class HttpCallSpanTest {

    private static final AtomicReference<String> traceparent = new AtomicReference<>("unset");
    private static HttpServer server;
    private static String base;

    @Inject
    CollectingSpanExporter spans;

    @BeforeAll
    static void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/traced", exchange -> {
            traceparent.set(String.valueOf(exchange.getRequestHeaders().getFirst("traceparent")));
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @AfterAll
    static void stop() {
        server.stop(0);
    }

    @Test
    void theCallIsAClientSpanUnderTheRunsSpan() throws Exception {
        TestTrace sent = TestTrace.random();
        String traceId = sent.traceId();
        RunJobEvent run = sent.on(WorkerKafka.run(JobType.HTTP,
                new HttpCallPayload("GET", base + "/traced?key=secret", null, null, null, null), null));
        try (WorkerKafka kafka = new WorkerKafka()) {
            // The run's trace continues the record's traceparent, as a scheduler sends it.
            kafka.sendInTrace(run, sent.traceparent());
        }

        List<SpanData> exported = await().atMost(Duration.ofSeconds(60)).until(() -> spans.trace(traceId),
                l -> l.stream().anyMatch(s -> s.getName().equals("HTTP GET"))
                        && l.stream().anyMatch(s -> s.getName().equals("run job")));
        SpanData runSpan = exported.stream().filter(s -> s.getName().equals("run job")).findFirst().orElseThrow();
        SpanData call = exported.stream().filter(s -> s.getName().equals("HTTP GET")).findFirst().orElseThrow();
        assertThat(call.getKind()).isEqualTo(SpanKind.CLIENT);
        assertThat(call.getParentSpanId()).isEqualTo(runSpan.getSpanId());
        assertThat(call.getAttributes().get(AttributeKey.longKey("http.response.status_code"))).isEqualTo(204L);
        assertThat(call.getAttributes().get(AttributeKey.stringKey("url.full"))).isEqualTo(base + "/traced");
        assertThat(traceparent).as("no trace context sent to the destination").hasValue("null");
    }
}
