package dev.jobweaver.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A platform that refuses a job-control field makes its workload unavailable after one request, saying why. */
class JobControlProbeTest {

    private HttpServer server;
    private ApiClient client;
    private final AtomicInteger requests = new AtomicInteger();
    private final ByteArrayOutputStream console = new ByteArrayOutputStream();

    /** A runner against an API answering every submission {@code status} with {@code body}; no database. */
    private WorkloadRunner runner(int status, String body, String... args) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/api/jobs", exchange -> {
            requests.incrementAndGet();
            exchange.getRequestBody().readAllBytes();
            byte[] answer = body.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        server.start();
        client = new ApiClient("http://127.0.0.1:" + server.getAddress().getPort());
        BenchOptions options = BenchOptions.parse(List.of(args), Path.of("/r"));
        return new WorkloadRunner(options, client, null, null, Fixtures.platform(), () -> ReplicaShare.Snapshot.NONE,
                new PrintStream(console, true), false);
    }

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void prioritiesAreUnavailableWhenTheApiRejectsThePriorityField() throws IOException {
        WorkloadRunner runner = runner(400, "{\"errorCode\":\"API.INVALID_JOB_REQUEST\",\"message\":"
                + "\"Unrecognized field priority\"}", "priorities");
        WorkloadResult result = runner.run(new BenchOptions.Run(Workload.PRIORITIES, 64, "priorities"));
        assertThat(result.available()).isFalse();
        assertThat(result.note()).startsWith("the API rejects \"priority\" (400: {\"errorCode\":\"API.INVALID_JOB_"
                + "REQUEST\",\"message\":\"Unrecognized field priority\"}); the platform does not support it yet");
        assertThat(requests.get()).isEqualTo(1);
        assertThat(console.toString()).contains("priorities: probing \"priority\" (one no-op job)...");
    }

    @Test
    void delayedIsUnavailableWhenTheApiRejectsDelayMs() throws IOException {
        WorkloadRunner runner = runner(400, "{\"message\":\"delayMs is unknown\"}", "delayed");
        WorkloadResult result = runner.run(new BenchOptions.Run(Workload.DELAYED, 0, "delayed"));
        assertThat(result.available()).isFalse();
        assertThat(result.note()).startsWith("the API rejects \"delayMs\" (400: ");
        assertThat(requests.get()).isEqualTo(1);
    }

    @Test
    void anotherRefusalIsReportedWithItsStatus() throws IOException {
        WorkloadRunner runner = runner(503, "{\"errorCode\":\"API.OVERLOADED\"}", "priorities");
        assertThat(runner.probeControl("priorities", "\"priority\"", Control.of(Priority.HIGH)))
                .isEqualTo("the probe job with \"priority\" was not accepted: 503 {\"errorCode\":\"API.OVERLOADED\"}");
    }
}
