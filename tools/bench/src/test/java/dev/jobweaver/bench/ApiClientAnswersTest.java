package dev.jobweaver.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every answer the API sends reaches the caller that asked, also when the caller sends from its own thread, paced as
 * an open loop does. Before submissions ran on the client's event loop, about one run in a hundred lost the answer to
 * its last request: the server had answered it, and the caller got a timeout instead.
 */
class ApiClientAnswersTest {

    @AutoClose
    private StubApi api;
    @AutoClose
    private ApiClient client;
    private final AtomicInteger served = new AtomicInteger();

    @BeforeEach
    void start() throws IOException {
        api = StubApi.serving("/api/jobs", 4, (exchange, body) -> {
            // counted before answering: counted after, the caller could have its answer, and the test its count,
            // before the handler's thread got to the increment
            served.incrementAndGet();
            StubApi.answer(exchange, 202, "{\"jobId\":\"" + UUID.randomUUID() + "\",\"traceId\":\"abc\"}");
        });
        // a lost answer never comes, however long the caller waits; 30 s, so that an answer a starved machine delays
        // (this test runs beside the end-to-end scenarios) is not counted as lost
        client = new ApiClient(api.url(), Duration.ofSeconds(30));
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
