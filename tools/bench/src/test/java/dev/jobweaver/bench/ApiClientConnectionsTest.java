package dev.jobweaver.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A burst's client holds as many connections as its concurrency: "a client with 64 connections". */
class ApiClientConnectionsTest {

    private HttpServer server;
    private ExecutorService handlers;
    private final Set<Integer> clientPorts = ConcurrentHashMap.newKeySet();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/api/jobs", exchange -> {
            exchange.getRequestBody().readAllBytes();
            clientPorts.add(exchange.getRemoteAddress().getPort());
            try {
                Thread.sleep(5); // long enough for requests to queue for a connection
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            byte[] answer = ("{\"jobId\":\"" + UUID.randomUUID() + "\"}").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(202, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        handlers = Executors.newFixedThreadPool(16);
        server.setExecutor(handlers);
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
        handlers.shutdownNow();
    }

    @Test
    void requestsBeyondTheConnectionsWaitForAFreeOne() throws Exception {
        try (ApiClient client = new ApiClient("http://127.0.0.1:" + server.getAddress().getPort(), 4)) {
            List<CompletableFuture<ApiClient.Answer>> answers = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                answers.add(client.submit("{}"));
            }
            CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
            assertThat(answers).allSatisfy(a -> assertThat(a.join().accepted()).isTrue());
        }
        assertThat(clientPorts).hasSizeBetween(1, 4);
    }

    @Test
    void aClientHasAtLeastOneConnection() {
        assertThatThrownBy(() -> new ApiClient("http://127.0.0.1:1", 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("at least one connection, got 0");
    }
}
