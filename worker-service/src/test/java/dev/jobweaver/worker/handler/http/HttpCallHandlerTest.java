package dev.jobweaver.worker.handler.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.common.job.HttpCallPayload;
import dev.jobweaver.common.job.JobCommand;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.job.Results;
import dev.jobweaver.worker.command.StoppedJobs;
import dev.jobweaver.worker.handler.HandlerRegistry;
import dev.jobweaver.sdk.Deadline;
import dev.jobweaver.sdk.JobFailure;
import dev.jobweaver.sdk.RunContext;
import dev.jobweaver.worker.run.AttemptExecutor;
import dev.jobweaver.worker.handler.RunResult;
import dev.jobweaver.worker.testing.HttpSettings;
import dev.jobweaver.worker.testing.RunSettings;
import dev.jobweaver.worker.testing.WorkerKafka;
import io.opentelemetry.api.trace.TracerProvider;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * HTTP jobs against a real server on 127.0.0.1: the request made, the result, failures, refusals, timeouts, a cancel.
 */
class HttpCallHandlerTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static HttpServer server;
    private static String base;
    private static final AtomicInteger hits = new AtomicInteger();
    /** Requests /slow has received, counted when they arrive (they are answered after their test). */
    private static final AtomicInteger slowReceived = new AtomicInteger();

    @BeforeAll
    static void startServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/echo", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            respond(exchange, 201, ("got " + exchange.getRequestMethod() + " " + exchange.getRequestHeaders()
                    .getFirst("X-Test") + " " + body).getBytes(StandardCharsets.UTF_8));
        });
        server.createContext("/received", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            respond(exchange, 200, (exchange.getRequestHeaders().getFirst("Content-Type") + " " + body)
                    .getBytes(StandardCharsets.UTF_8));
        });
        server.createContext("/status/500", exchange -> respond(exchange, 500, "boom".getBytes()));
        server.createContext("/redirect", exchange -> {
            exchange.getResponseHeaders().add("Location", base + "/echo");
            respond(exchange, 302, new byte[0]);
        });
        server.createContext("/slow", exchange -> {
            slowReceived.incrementAndGet();
            try {
                Thread.sleep(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            send(exchange, 200, "late".getBytes()); // not counted: it answers after its test is over
        });
        server.createContext("/big", exchange -> respond(exchange, 200, "a".repeat(100_000).getBytes()));
        server.createContext("/control", exchange -> respond(exchange, 200, "\u0001".repeat(60_000).getBytes()));
        server.createContext("/utf8", exchange -> respond(exchange, 200, "\u00e9\u00e9\u00e9".getBytes(StandardCharsets.UTF_8)));
        server.createContext("/nul", exchange -> respond(exchange, 200, "a\u0000b".getBytes(StandardCharsets.UTF_8)));
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private static void respond(HttpExchange exchange, int status, byte[] body) throws IOException {
        hits.incrementAndGet();
        send(exchange, status, body);
    }

    private static void send(HttpExchange exchange, int status, byte[] body) throws IOException {
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        try (var out = exchange.getResponseBody()) {
            out.write(body);
        } catch (IOException clientGone) {
            // a client that read only a prefix hangs up
        }
    }

    @AfterAll
    static void stopServer() {
        server.stop(0);
    }

    @BeforeEach
    void resetHits() {
        hits.set(0);
    }

    @Test
    void aRequestSucceedsWithItsStatusAndBodyAsTheResult() throws Exception {
        JsonNode result = run(HttpSettings.loopback(), new HttpCallPayload("post", base + "/echo",
                Map.of("X-Test", "yes"), "hello", null, null));

        assertThat(result.path("status").asInt()).isEqualTo(201);
        assertThat(result.path("body").asText()).isEqualTo("got POST yes hello");
        assertThat(result.path("truncated").asBoolean()).isFalse();
        assertThat(result.size()).isEqualTo(3);
    }

    @Test
    void aJobWithoutBodySendsWhatItReceivedAsJson() throws Exception {
        JsonNode input = JSON.readTree("{\"order\":7}");
        JsonNode results = JSON.readTree("{\"extract\":{\"rows\":3}}");

        JsonNode result = run(HttpSettings.loopback(), new HttpCallPayload("POST", base + "/received", null, null,
                null, null), input, results);

        String answer = result.path("body").asText();
        assertThat(answer).startsWith("application/json ");
        assertThat(JSON.readTree(answer.substring("application/json ".length()))).isEqualTo(
                JSON.readTree("{\"input\":{\"order\":7},\"results\":{\"extract\":{\"rows\":3}}}"));
    }

    @Test
    void itsOwnBodyAndContentTypeWin() throws Exception {
        JsonNode input = JSON.readTree("{\"order\":7}");

        JsonNode ownBody = run(HttpSettings.loopback(), new HttpCallPayload("POST", base + "/received",
                Map.of("Content-Type", "text/plain"), "mine", null, null), input, null);
        JsonNode ownType = run(HttpSettings.loopback(), new HttpCallPayload("POST", base + "/received",
                Map.of("content-type", "application/vnd.test+json"), null, null, null), input, null);
        JsonNode nothing = run(HttpSettings.loopback(), new HttpCallPayload("POST", base + "/received", null, null,
                null, null), null, null);

        assertThat(ownBody.path("body").asText()).isEqualTo("text/plain mine");
        assertThat(ownType.path("body").asText()).isEqualTo("application/vnd.test+json {\"input\":{\"order\":7}}");
        assertThat(nothing.path("body").asText()).isEqualTo("null ");
    }

    @Test
    void anUnexpectedStatusFailsNamingItAndAnExpectedOneSucceeds() throws Exception {
        HttpCallPayload failing = new HttpCallPayload("GET", base + "/status/500?token=secret", null, null, null, null);

        assertThatThrownBy(() -> run(HttpSettings.loopback(), failing))
                .isInstanceOf(JobFailure.class)
                .hasMessage("WORKER.HTTP_CALL_FAILED: GET " + base + "/status/500 answered 500, expected 2xx");
        JsonNode expected = run(HttpSettings.loopback(),
                new HttpCallPayload("GET", base + "/status/500", null, null, List.of(500, 503), null));
        assertThat(expected.path("status").asInt()).isEqualTo(500);
        assertThat(expected.path("body").asText()).isEqualTo("boom");
    }

    @Test
    void aRedirectIsNotFollowed() {
        assertThatThrownBy(() -> run(HttpSettings.loopback(),
                new HttpCallPayload("GET", base + "/redirect", null, null, null, null)))
                .hasMessage("WORKER.HTTP_CALL_FAILED: GET " + base + "/redirect answered 302, expected 2xx"
                        + " (redirects are not followed)");
        assertThat(hits).as("only the redirect was requested, not its target").hasValue(1);
    }

    @Test
    void loopbackPrivateAndLinkLocalAreRefusedByDefault() {
        int port = server.getAddress().getPort();

        assertThatThrownBy(() -> run(HttpSettings.defaults(), get(base + "/echo")))
                .hasMessage("WORKER.HTTP_CALL_FAILED: GET " + base + "/echo refused: address 127.0.0.1, a loopback"
                        + " address, which HTTP jobs may not reach; allow it with"
                        + " jobweaver.worker.http.allowed-networks (or jobweaver.worker.http.allow-private)");
        assertThatThrownBy(() -> run(HttpSettings.defaults(), get("http://localhost:" + port + "/echo")))
                .hasMessageContaining("refused: host localhost resolves to")
                .hasMessageContaining("a loopback address");
        assertThatThrownBy(() -> run(HttpSettings.defaults(), get("http://[::1]:" + port + "/echo")))
                .hasMessageContaining("a loopback address");
        assertThatThrownBy(() -> run(HttpSettings.defaults(), get("http://10.1.2.3/")))
                .hasMessageContaining("refused: address 10.1.2.3, a private address");
        assertThatThrownBy(() -> run(HttpSettings.defaults(), get("http://169.254.169.254/latest/meta-data")))
                .hasMessageContaining("refused: address 169.254.169.254, a link-local address");
        assertThat(hits).as("a refused request is never sent").hasValue(0);
    }

    @Test
    void aHostOutsideTheAllowedHostsIsRefused() {
        assertThatThrownBy(() -> run(HttpSettings.loopback().withHosts("api.example.com"), get(base + "/echo")))
                .hasMessage("WORKER.HTTP_CALL_FAILED: GET " + base + "/echo refused: host 127.0.0.1 is not in"
                        + " jobweaver.worker.http.allowed-hosts");
        assertThat(hits).hasValue(0);
    }

    @Test
    void aSlowAnswerFailsAtTheRequestTimeout() {
        long started = System.nanoTime();
        assertThatThrownBy(() -> run(HttpSettings.loopback(),
                new HttpCallPayload("GET", base + "/slow", null, null, null, 300L)))
                .hasMessage("WORKER.HTTP_CALL_FAILED: GET " + base + "/slow timed out after 300 ms");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(3));
    }

    @Test
    void theAttemptsDeadlineCutsTheRequestAndFailsItWithTimeout() {
        long started = System.nanoTime();
        assertThatThrownBy(() -> run(HttpSettings.loopback(), get(base + "/slow"),
                Deadline.in(Duration.ofMillis(400), true)))
                .hasMessage("WORKER.TIMEOUT: the attempt ran longer than its timeoutMs of 400 ms");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(3));
    }

    @Test
    void aLongBodyIsTruncatedToTheConfiguredBytes() throws Exception {
        JsonNode result = run(HttpSettings.loopback().withMaxBodyBytes(1000), get(base + "/big"));

        assertThat(result.path("body").asText()).isEqualTo("a".repeat(1000));
        assertThat(result.path("truncated").asBoolean()).isTrue();
    }

    @Test
    void aBodyThatEscapesToMoreThanTheResultBoundIsCutUntilItFits() throws Exception {
        JsonNode result = run(HttpSettings.loopback().withMaxBodyBytes(Results.MAX_BYTES), get(base + "/control"));

        assertThat(Results.tooLarge(result)).isFalse();
        assertThat(result.path("truncated").asBoolean()).isTrue();
        assertThat(result.path("body").asText()).isNotEmpty().matches("\u0001+");
    }

    @Test
    void aCutNeverSplitsACharacterAndNulBecomesAReplacementCharacter() throws Exception {
        JsonNode cut = run(HttpSettings.loopback().withMaxBodyBytes(5), get(base + "/utf8"));
        JsonNode nul = run(HttpSettings.loopback(), get(base + "/nul"));

        assertThat(cut.path("body").asText()).isEqualTo("\u00e9\u00e9");
        assertThat(cut.path("truncated").asBoolean()).isTrue();
        assertThat(nul.path("body").asText()).isEqualTo("a\ufffdb");
    }

    @Test
    void aRefusedConnectionFailsNamingTheCause() throws IOException {
        int closed;
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            closed = socket.getLocalPort();
        }
        String url = "http://127.0.0.1:" + closed + "/";
        assertThatThrownBy(() -> run(HttpSettings.loopback(), get(url)))
                .hasMessageStartingWith("WORKER.HTTP_CALL_FAILED: GET " + url + " failed: ConnectException");
    }

    @Test
    void aHeaderTheClientMayNotSetFailsTheAttempt() {
        assertThatThrownBy(() -> run(HttpSettings.loopback(),
                new HttpCallPayload("GET", base + "/echo", Map.of("Host", "elsewhere"), null, null, null)))
                .hasMessage("WORKER.HTTP_CALL_FAILED: GET " + base + "/echo could not be sent: header Host is one the"
                        + " HTTP client sets itself, or its value is invalid");
        assertThat(hits).hasValue(0);
    }

    @Test
    void credentialsInTheUrlAreRefusedAndNeverShown() {
        String url = "http://user:s3cret@127.0.0.1:" + server.getAddress().getPort() + "/echo";

        assertThatThrownBy(() -> run(HttpSettings.loopback(), get(url)))
                .hasMessage("WORKER.HTTP_CALL_FAILED: GET " + base + "/echo could not be sent: the url holds user info;"
                        + " send credentials in a header (Authorization) instead")
                .message().doesNotContain("s3cret");
        assertThat(hits).hasValue(0);
    }

    @Test
    void aBodyBoundAboveTheResultBoundFailsStartUp() {
        assertThatThrownBy(() -> new HttpCallHandler(HttpSettings.defaults().withMaxBodyBytes(Results.MAX_BYTES + 1),
                TracerProvider.noop().get("test")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("jobweaver.worker.http.max-body-bytes must be between 0 and 65536, got 65537");
    }

    @Test
    void aRequestInProgressEndsAtOnceWhenItsJobIsCancelled() throws Exception {
        HttpCallHandler handler = new HttpCallHandler(HttpSettings.loopback(), TracerProvider.noop().get("test"));
        StoppedJobs stopped = new StoppedJobs(Clock.systemUTC(), Duration.ofHours(1), 10);
        AttemptExecutor executor = new AttemptExecutor(new HandlerRegistry(List.of(
                new HandlerRegistry.Named(handler, "http"))), RunSettings.defaults(), stopped);
        RunJobEvent event = WorkerKafka.run(JobType.HTTP, get(base + "/slow"), null);
        AtomicReference<RunResult> result = new AtomicReference<>();
        int received = slowReceived.get();
        try {
            Thread run = Thread.ofVirtual().start(() -> result.set(executor.run(event, null)));
            // the request is out (/slow answers after 5 s), so the attempt is running
            await().atMost(Duration.ofSeconds(10)).until(() -> slowReceived.get() > received);
            long cancelled = System.nanoTime();
            stopped.record(event.jobId(), JobCommand.CANCEL, Instant.now());
            executor.cancel(event.jobId());
            run.join(Duration.ofSeconds(10));

            // /slow would answer 5 s after it received the request; a starved machine gets seconds of room
            assertThat(Duration.ofNanos(System.nanoTime() - cancelled)).isLessThan(Duration.ofSeconds(3));
            assertThat(result.get().errorMessage())
                    .isEqualTo("WORKER.CANCELLED: the job was cancelled while the attempt ran");
        } finally {
            handler.stop();
        }
    }

    private static HttpCallPayload get(String url) {
        return new HttpCallPayload("GET", url, null, null, null, null);
    }

    private static JsonNode run(HttpCallConfig config, HttpCallPayload payload) throws Exception {
        return run(config, payload, Deadline.in(Duration.ofSeconds(30), false));
    }

    private static JsonNode run(HttpCallConfig config, HttpCallPayload payload, JsonNode input, JsonNode results)
            throws Exception {
        HttpCallHandler handler = new HttpCallHandler(config, TracerProvider.noop().get("test"));
        try {
            return handler.run(new RunContext<>(UUID.randomUUID(), 1, null, payload,
                    Deadline.in(Duration.ofSeconds(30), false), input, results));
        } finally {
            handler.stop();
        }
    }

    private static JsonNode run(HttpCallConfig config, HttpCallPayload payload, Deadline deadline) throws Exception {
        HttpCallHandler handler = new HttpCallHandler(config, TracerProvider.noop().get("test"));
        try {
            return handler.run(new RunContext<>(UUID.randomUUID(), 1, null, payload, deadline));
        } finally {
            handler.stop();
        }
    }
}
