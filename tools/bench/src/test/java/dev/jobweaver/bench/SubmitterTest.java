package dev.jobweaver.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Submission against a fake API (the JDK's HTTP server): counts, ids, bodies and giving up on a refusing API. */
class SubmitterTest {

    private HttpServer server;
    private ApiClient client;
    private final Set<String> bodies = ConcurrentHashMap.newKeySet();
    private final AtomicInteger requests = new AtomicInteger();

    private ApiClient api(int status) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/api/jobs", exchange -> {
            requests.incrementAndGet();
            bodies.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            byte[] answer = (status == 202
                    ? "{\"jobId\":\"" + UUID.randomUUID() + "\",\"traceId\":\"abc\"}"
                    : "{\"status\":400,\"errorCode\":\"API.INVALID_JOB_REQUEST\",\"message\":\"times is unknown\"}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        server.setExecutor(java.util.concurrent.Executors.newFixedThreadPool(4));
        server.start();
        client = new ApiClient("http://127.0.0.1:" + server.getAddress().getPort() + "/");
        return client;
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

    /** Runs {@code submit} with a progress line that prints nowhere, closed afterwards as the workloads close it. */
    private static Submission quietly(int total, Function<Progress, Submission> submit) {
        try (Progress progress = new Progress("test", total, new PrintStream(new ByteArrayOutputStream()), false)) {
            return submit.apply(progress);
        }
    }

    @Test
    void burstSendsEveryJobAndHandsOverEveryAcceptedOne() throws IOException {
        ApiClient api = api(202);
        List<Accepted> accepted = new CopyOnWriteArrayList<>();
        Submission s = quietly(200, progress -> new Submitter(api).burst(200, 8,
                i -> JobKind.mix(i, 0.05, JobKind.SLEEPER), accepted::add, progress));
        assertThat(s.offered()).isEqualTo(200);
        assertThat(s.accepted()).isEqualTo(200);
        assertThat(s.rejected()).isZero();
        assertThat(accepted).hasSize(200);
        assertThat(accepted.stream().map(Accepted::jobId).distinct()).hasSize(200);
        assertThat(accepted.stream().filter(a -> a.kind() == JobKind.SLEEPER)).hasSize(10);
        assertThat(accepted).allSatisfy(a -> assertThat(a.acceptMs()).isNotNegative());
        assertThat(bodies).containsExactlyInAnyOrder(JobKind.NOOP.body(), JobKind.SLEEPER.body());
    }

    @Test
    void aRefusingApiStopsTheBurstWithItsAnswer() throws IOException {
        ApiClient api = api(400);
        Submission s = quietly(5_000, progress -> new Submitter(api).burst(5_000, 4, i -> JobKind.FLAKY, a -> { },
                progress));
        assertThat(s.accepted()).isZero();
        assertThat(s.offered()).isLessThan(5_000);
        assertThat(s.rejected()).isEqualTo(s.offered());
        assertThat(s.firstRejection()).startsWith("400 ").contains("times is unknown");
    }

    @Test
    void openLoopSendsTheScheduledCount() throws IOException {
        ApiClient api = api(202);
        List<Accepted> accepted = new CopyOnWriteArrayList<>();
        Submission s = quietly(20, progress -> new Submitter(api).openLoop(new RateSchedule(200,
                Duration.ofMillis(100)), accepted::add, progress));
        assertThat(s.offered()).isEqualTo(20);
        assertThat(accepted).hasSize(20);
        assertThat(requests.get()).isEqualTo(20);
    }

    @Test
    void aBurstWithPrioritiesSendsEachJobsLevelAndKeepsItWithTheAcceptedJob() throws IOException {
        ApiClient api = api(202);
        List<Accepted> accepted = new CopyOnWriteArrayList<>();
        quietly(100, progress -> new Submitter(api).burst(100, 8, i -> JobKind.NOOP,
                i -> Control.of(Control.mixed(i)), accepted::add, progress));
        assertThat(accepted).hasSize(100);
        assertThat(accepted.stream().filter(a -> a.control().priority() == Priority.HIGH)).hasSize(60);
        assertThat(accepted.stream().filter(a -> a.control().priority() == Priority.NORMAL)).hasSize(30);
        assertThat(accepted.stream().filter(a -> a.control().priority() == Priority.LOW)).hasSize(10);
        assertThat(bodies).containsExactlyInAnyOrder(Control.of(Priority.HIGH).body(JobKind.NOOP),
                Control.of(Priority.NORMAL).body(JobKind.NOOP), Control.of(Priority.LOW).body(JobKind.NOOP));
    }

    @Test
    void anOpenLoopWithDelaysSendsEachJobsDelay() throws IOException {
        ApiClient api = api(202);
        List<Accepted> accepted = new CopyOnWriteArrayList<>();
        quietly(20, progress -> new Submitter(api).openLoop(new RateSchedule(200, Duration.ofMillis(100)),
                i -> Control.delayed(Control.spreadDelay(i, 2_000, 8_000)), accepted::add, progress));
        assertThat(accepted).hasSize(20);
        assertThat(accepted).allSatisfy(a -> assertThat(a.control().delayMs()).isBetween(2_000L, 8_000L));
        assertThat(bodies).hasSize(20).allSatisfy(b -> assertThat(b).containsPattern(",\"delayMs\":\\d{4}}$"));
        assertThat(bodies).contains(Control.delayed(2_000).body(JobKind.NOOP));
    }

    @Test
    void anUnreachableApiIsAnAnswerNotAnException() {
        try (ApiClient unreachable = new ApiClient("http://127.0.0.1:1")) {
            ApiClient.Answer answer = unreachable.submit(JobKind.NOOP.body()).join();
            assertThat(answer.status()).isZero();
            assertThat(answer.accepted()).isFalse();
            assertThat(answer.body()).isNotBlank();
            assertThat(unreachable.ready()).isFalse();
        }
    }

    @Test
    void aSilentApiIsAnAnswerWithinTheRequestTimeout() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/api/jobs", exchange -> { }); // reads nothing, answers nothing, keeps the connection
        server.start();
        try (ApiClient silent = new ApiClient("http://127.0.0.1:" + server.getAddress().getPort(),
                Duration.ofMillis(300))) {
            ApiClient.Answer answer = silent.submit(JobKind.NOOP.body()).get(10, TimeUnit.SECONDS);
            assertThat(answer.status()).isZero();
            assertThat(answer.accepted()).isFalse();
            assertThat(answer.body()).containsIgnoringCase("timeout");
        }
    }

    @Test
    void theReadinessProbeIsTrueOnlyFor200() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        AtomicInteger status = new AtomicInteger(503);
        server.createContext("/q/health/ready", exchange -> {
            exchange.sendResponseHeaders(status.get(), -1);
            exchange.close();
        });
        server.start();
        client = new ApiClient("http://127.0.0.1:" + server.getAddress().getPort());

        assertThat(client.ready()).isFalse();
        status.set(200);
        assertThat(client.ready()).isTrue();
    }
}
