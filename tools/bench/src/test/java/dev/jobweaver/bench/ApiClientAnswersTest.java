package dev.jobweaver.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every answer the API sends reaches the caller that asked, also when the caller sends from its own thread, paced as
 * an open loop does. Before submissions ran on the client's event loop, about one run in a hundred lost the answer to
 * its last request: the server had answered it, and the caller got a timeout instead.
 */
class ApiClientAnswersTest {

    private HttpServer server;
    private ExecutorService handlers;
    private ApiClient client;
    private final AtomicInteger served = new AtomicInteger();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/api/jobs", exchange -> {
            exchange.getRequestBody().readAllBytes();
            // counted before answering: counted after, the caller could have its answer, and the test its count,
            // before the handler's thread got to the increment
            served.incrementAndGet();
            byte[] answer = ("{\"jobId\":\"" + UUID.randomUUID() + "\",\"traceId\":\"abc\"}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(202, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        handlers = Executors.newFixedThreadPool(4);
        server.setExecutor(handlers);
        server.start();
        client = new ApiClient("http://127.0.0.1:" + server.getAddress().getPort(), Duration.ofSeconds(3));
    }

    @AfterEach
    void stop() {
        client.close();
        server.stop(0);
        handlers.shutdownNow();
    }

    @Test
    void everyAnswerSentReachesItsCaller() {
        int rounds = 300;
        int perRound = 20;
        int lost = 0;
        for (int round = 0; round < rounds; round++) {
            List<CompletableFuture<ApiClient.Answer>> answers = new ArrayList<>(perRound);
            for (int i = 0; i < perRound; i++) {
                answers.add(client.submit(JobKind.NOOP.body()));
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(500));
            }
            for (CompletableFuture<ApiClient.Answer> answer : answers) {
                if (!answer.join().accepted()) {
                    lost++;
                }
            }
        }
        assertThat(served.get()).isEqualTo(rounds * perRound);
        assertThat(lost).as("answers the server sent that never reached their caller").isZero();
    }
}
