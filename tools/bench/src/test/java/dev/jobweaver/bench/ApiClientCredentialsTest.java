package dev.jobweaver.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.vertx.core.http.HttpMethod;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The bench's client sends its API key with every request to the API, and none to the readiness probe. */
class ApiClientCredentialsTest {

    private static final String KEY = "jw_" + "k".repeat(43);

    private HttpServer server;
    /** The Authorization header each path received last, "none" when absent. */
    private final Map<String, String> authorization = new ConcurrentHashMap<>();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            String header = exchange.getRequestHeaders().getFirst("Authorization");
            authorization.put(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath(),
                    header == null ? "none" : header);
            exchange.getRequestBody().readAllBytes();
            byte[] body = ("{\"jobId\":\"" + UUID.randomUUID() + "\"}").getBytes(StandardCharsets.UTF_8);
            int status = exchange.getRequestURI().getPath().startsWith("/q/") ? 200 : 202;
            exchange.sendResponseHeaders(status, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @Test
    void everyApiRequestCarriesTheKeyAsABearerAndTheProbeNone() {
        UUID id = UUID.randomUUID();
        try (ApiClient api = new ApiClient(url(), KEY)) {
            assertThat(api.submit("{}").join().accepted()).isTrue();
            api.cancel(id).join();
            api.send(HttpMethod.GET, "/api/schedules", null).join();
            assertThat(api.ready()).isTrue();
        }
        assertThat(authorization).containsEntry("POST /api/jobs", "Bearer " + KEY)
                .containsEntry("POST /api/jobs/" + id + "/cancel", "Bearer " + KEY)
                .containsEntry("GET /api/schedules", "Bearer " + KEY)
                .containsEntry("GET /q/health/ready", "none");
    }

    @Test
    void aClientForMoreConnectionsKeepsTheKey() {
        try (ApiClient api = new ApiClient(url(), KEY); ApiClient wide = api.withConnections(4)) {
            wide.submit("{}").join();
        }
        assertThat(authorization).containsEntry("POST /api/jobs", "Bearer " + KEY);
    }

    @Test
    void withoutAKeyNothingIsSent() {
        try (ApiClient api = new ApiClient(url(), (String) null); ApiClient other = api.another()) {
            api.submit("{}").join();
            other.send(HttpMethod.DELETE, "/api/schedules/x", null).join();
        }
        assertThat(authorization).containsEntry("POST /api/jobs", "none")
                .containsEntry("DELETE /api/schedules/x", "none");
    }
}
