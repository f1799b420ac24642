package dev.jobweaver.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A burst's client holds as many connections as its concurrency: "a client with 64 connections". */
class ApiClientConnectionsTest {

    @AutoClose
    private StubApi api;
    private final Set<Integer> clientPorts = ConcurrentHashMap.newKeySet();

    @BeforeEach
    void start() throws IOException {
        api = StubApi.serving("/api/jobs", 16, (exchange, body) -> {
            clientPorts.add(exchange.getRemoteAddress().getPort());
            try {
                Thread.sleep(5); // long enough for requests to queue for a connection
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            StubApi.answer(exchange, 202, "{\"jobId\":\"" + UUID.randomUUID() + "\"}");
        });
    }

    @Test
    void requestsBeyondTheConnectionsWaitForAFreeOne() throws Exception {
        try (ApiClient client = new ApiClient(api.url(), 4)) {
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
