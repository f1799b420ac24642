package dev.jobweaver.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.jobweaver.e2e.support.E2ePlatform;
import dev.jobweaver.e2e.support.HealthyPlatform;
import dev.jobweaver.e2e.support.JobWeaverClient;
import dev.jobweaver.e2e.support.NativeScenario;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * HTTP jobs on the packaged services: the worker makes the request the job describes, and its status and body become
 * the job's result; an unexpected status fails the attempt; a destination the worker's configuration does not allow
 * is refused without a request.
 */
@HealthyPlatform
@NativeScenario
class HttpJobIT {

    private static HttpServer server;
    private static final Map<String, String> received = new ConcurrentHashMap<>();

    @BeforeAll
    static void startServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/hook", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            received.put(exchange.getRequestHeaders().getFirst("X-Run"), exchange.getRequestMethod() + " " + body);
            reply(exchange, 201, "{\"accepted\":true}");
        });
        server.createContext("/broken", exchange -> reply(exchange, 500, "database on fire"));
        server.start();
    }

    @AfterAll
    static void stopServer() {
        server.stop(0);
    }

    @Test
    void theRequestIsMadeAndItsAnswerIsTheResult() {
        JobWeaverClient api = E2ePlatform.api();
        String run = UUID.randomUUID().toString();
        UUID id = api.submitAccepted(http("\"method\":\"POST\",\"url\":\"" + url("/hook")
                + "\",\"headers\":{\"X-Run\":\"" + run + "\"},\"body\":\"{\\\"n\\\":1}\",\"expectedStatus\":[201]", 0));

        JsonNode job = api.awaitAll(List.of(id), JobWeaverClient::terminal, Duration.ofSeconds(60)).get(id);

        assertThat(job.path("status").asText()).as(job.toString()).isEqualTo("COMPLETED");
        assertThat(received).containsEntry(run, "POST {\"n\":1}");
        assertThat(job.path("result").path("status").asInt()).isEqualTo(201);
        assertThat(job.path("result").path("body").asText()).isEqualTo("{\"accepted\":true}");
        assertThat(job.path("type").asText()).isEqualTo("HTTP");
    }

    @Test
    void anUnexpectedStatusFailsTheAttempt() {
        JobWeaverClient api = E2ePlatform.api();
        UUID id = api.submitAccepted(http("\"method\":\"GET\",\"url\":\"" + url("/broken") + "\"", 0));

        JsonNode job = api.awaitAll(List.of(id), JobWeaverClient::terminal, Duration.ofSeconds(60)).get(id);

        assertThat(job.path("status").asText()).isEqualTo("FAILED");
        assertThat(job.path("lastError").asText()).contains("WORKER.HTTP_CALL_FAILED").contains("500");
    }

    @Test
    void aDestinationOutsideTheAllowedNetworksIsRefused() {
        JobWeaverClient api = E2ePlatform.api();
        // a private address: refused by default, and 127.0.0.1/32 is all the e2e worker allows
        UUID id = api.submitAccepted(http("\"method\":\"GET\",\"url\":\"http://10.255.255.1:9/\"", 0));

        JsonNode job = api.awaitAll(List.of(id), JobWeaverClient::terminal, Duration.ofSeconds(60)).get(id);

        assertThat(job.path("status").asText()).isEqualTo("FAILED");
        assertThat(job.path("lastError").asText()).contains("WORKER.HTTP_CALL_FAILED").contains("refused");
    }

    @Test
    void aMalformedHttpPayloadIsA400NamingTheField() {
        JobWeaverClient.Answer answer = E2ePlatform.api().submit(http("\"url\":\"" + url("/hook") + "\"", 0));

        assertThat(answer.status()).isEqualTo(400);
        assertThat(answer.body().path("message").asText()).contains("payload.method");
    }

    private static String http(String payload, int maxRetryCount) {
        return "{\"jobType\":\"HTTP\",\"payload\":{" + payload + "},\"maxRetryCount\":" + maxRetryCount + "}";
    }

    private static String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    private static void reply(com.sun.net.httpserver.HttpExchange exchange, int status, String body)
            throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
