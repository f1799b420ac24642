package dev.jobweaver.worker.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.common.job.Step;
import dev.jobweaver.common.tracing.ZipkinExporterProducer;
import dev.jobweaver.local.Ports;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.worker.testing.WorkerDatabase;
import dev.jobweaver.worker.testing.WorkerKafka;
import dev.jobweaver.worker.testing.WorkerKafkaSupport;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The executable exports a run's spans to Zipkin when {@code jobweaver.tracing.zipkin.enabled} is on, as
 * {@code ./jobweaver up --traces} runs it: the OpenTelemetry SDK, the run's trace and the Zipkin sender work natively.
 */
@QuarkusIntegrationTest
@TestProfile(RunTracesIT.ToZipkin.class)
@JobWeaverTest(database = WorkerDatabase.NAME)
class RunTracesIT extends WorkerKafkaSupport {

    /**
     * The collector's port, chosen once per JVM. A system property rather than a static field: the profile and the test
     * class may be loaded by different class loaders, and both must name the same port.
     */
    private static final String PORT = "jobweaver.test.zipkin-port";

    private static final List<String> received = new CopyOnWriteArrayList<>();
    private static HttpServer collector;

    /** Points the Zipkin exporter at the collector this class starts. */
    public static class ToZipkin implements QuarkusTestProfile {

        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(ZipkinExporterProducer.ENABLED, "true",
                    "jobweaver.tracing.zipkin.endpoint", "http://127.0.0.1:" + port() + "/api/v2/spans");
        }
    }

    private static synchronized int port() {
        if (System.getProperty(PORT) == null) {
            System.setProperty(PORT, Integer.toString(Ports.free()));
        }
        return Integer.getInteger(PORT);
    }

    @BeforeAll
    static void startCollector() throws IOException {
        collector = HttpServer.create(new InetSocketAddress("127.0.0.1", port()), 0);
        collector.createContext("/api/v2/spans", RunTracesIT::collect);
        collector.start();
    }

    @AfterAll
    static void stopCollector() {
        collector.stop(0);
    }

    @Test
    void aRunsSpansReachZipkinInItsTrace() {
        RunJobEvent run = WorkerKafka.run(new Step.Log("traced natively"));
        kafka.send(run, null);

        String traceId = firstOutcome(run.jobId()).value().path("traceId").asText();
        assertThat(traceId).matches("[0-9a-f]{32}");
        await().atMost(WAIT).until(() -> received.stream().anyMatch(b -> b.contains("\"traceId\":\"" + traceId + "\"")));
    }

    private static void collect(HttpExchange exchange) throws IOException {
        try (exchange; InputStream raw = exchange.getRequestBody()) {
            boolean gzip = "gzip".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Content-Encoding"));
            InputStream body = gzip ? new GZIPInputStream(raw) : raw;
            received.add(new String(body.readAllBytes(), StandardCharsets.UTF_8));
            exchange.sendResponseHeaders(202, -1);
        }
    }
}
