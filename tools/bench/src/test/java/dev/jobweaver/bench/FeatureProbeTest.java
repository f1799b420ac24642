package dev.jobweaver.bench;

import static dev.jobweaver.bench.StubApi.answer;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * The probes of the notify and schedules workloads against a stub API: a platform without the endpoint makes the
 * workload unavailable, saying so, instead of failing; one with it passes the probe.
 */
class FeatureProbeTest {

    private static final UUID JOB = UUID.fromString("6f1c1a52-3c55-4d4e-9f0e-2d5f7b9a0c11");
    private static final UUID SCHEDULE = UUID.fromString("0b9f1a52-3c55-4d4e-9f0e-2d5f7b9a0c22");
    private static final String SECRET = "whsec_am9id2VhdmVyLWJlbmNoLXRlc3Qta2V5LTMyYnl0ZXM=";

    @AutoClose
    private StubApi api;
    private final ByteArrayOutputStream console = new ByteArrayOutputStream();

    /** An API accepting every job as {@link #JOB}, answering the feature's paths by {@code feature}; no database. */
    private WorkloadRunner runner(StubApi.Route feature, String... args) throws IOException {
        api = StubApi.serving("/api/", (exchange, body) -> {
            if (exchange.getRequestURI().getPath().equals("/api/jobs")) {
                answer(exchange, 202, "{\"jobId\":\"" + JOB + "\"}");
            } else {
                feature.handle(exchange, body);
            }
        });
        return api.runner(List.of(args), console);
    }

    @Test
    void notifyIsUnavailableWhenTheApiHasNoSubscriptions() throws IOException {
        WorkloadRunner runner = runner((exchange, body) -> answer(exchange, 404, ""), "notify");
        StubApi.assertUnavailable(runner.run(new BenchOptions.Run(Workload.NOTIFY, 16, "notify")))
                .isEqualTo("the API answers 404 to POST /api/subscriptions (); the platform does not support "
                        + "notifications");
        assertThat(api.requests).hasSize(2);
        assertThat(api.requests.get(0)).startsWith("POST /api/jobs ").contains("\"delayMs\":2000");
        assertThat(api.requests.get(1)).startsWith("POST /api/subscriptions {\"jobId\":\"" + JOB + "\","
                + "\"events\":[\"COMPLETED\"],\"url\":\"http://127.0.0.1:").endsWith("/hook\"}");
        assertThat(console.toString()).contains("notify: probing POST /api/subscriptions");
    }

    @Test
    void anUnknownJobsNotFoundIsAFailedProbeNotAMissingFeature() throws IOException {
        WorkloadRunner runner = runner((exchange, body) -> answer(exchange, 404,
                "{\"errorCode\":\"API.JOB_NOT_FOUND\"}"), "notify");
        try (NotifyEndpoint receiver = NotifyEndpoint.start()) {
            assertThat(runner.probeNotify("notify", receiver, new HashSet<>())).isEqualTo("the probe subscription "
                    + "was answered 404 {\"errorCode\":\"API.JOB_NOT_FOUND\"}, not 201");
        }
    }

    @Test
    void aSubscriptionWithoutASecretFailsTheProbe() throws IOException {
        WorkloadRunner runner = runner((exchange, body) -> answer(exchange, 201, "{\"id\":\"x\"}"), "notify");
        try (NotifyEndpoint receiver = NotifyEndpoint.start()) {
            assertThat(runner.probeNotify("notify", receiver, new HashSet<>()))
                    .isEqualTo("the probe subscription's 201 has no whsec_ secret: {\"id\":\"x\"}");
        }
    }

    @Test
    void theProbePassesOnceItsWebhookArrives() throws IOException {
        ObjectMapper json = new ObjectMapper();
        HttpClient http = HttpClient.newHttpClient();
        WorkloadRunner runner = runner((exchange, body) -> {
            answer(exchange, 201, "{\"id\":\"" + UUID.randomUUID() + "\",\"secret\":\"" + SECRET + "\"}");
            // the platform's delivery of the probe job's completion, to the URL the subscription named
            String url = json.readTree(body).path("url").asText();
            String event = "{\"type\":\"job.completed\",\"jobId\":\"" + JOB + "\"}";
            byte[] bytes = event.getBytes(StandardCharsets.UTF_8);
            http.sendAsync(HttpRequest.newBuilder(URI.create(url)).header("webhook-id", "msg_1")
                    .header("webhook-timestamp", "1767225600")
                    .header("webhook-signature", Webhooks.sign(Webhooks.key(SECRET), "msg_1", "1767225600", bytes))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(bytes)).build(),
                    HttpResponse.BodyHandlers.discarding());
        }, "notify", "--timeout", "10s");
        Set<UUID> probes = new HashSet<>();
        try (NotifyEndpoint receiver = NotifyEndpoint.start()) {
            assertThat(runner.probeNotify("notify", receiver, probes)).isNull();
            assertThat(receiver.received(JOB)).isTrue();
        }
        assertThat(probes).containsExactly(JOB);
        http.close();
    }

    @Test
    void schedulesAreUnavailableWhenTheApiHasNoSchedules() throws IOException {
        WorkloadRunner runner = runner((exchange, body) -> answer(exchange, 404, "Not Found"), "schedules");
        StubApi.assertUnavailable(runner.run(new BenchOptions.Run(Workload.SCHEDULES, 16, "schedules")))
                .isEqualTo("the API answers 404 to POST /api/schedules (Not Found); the platform does not support "
                        + "recurring schedules");
        assertThat(api.requests).singleElement().asString().startsWith("POST /api/schedules {\"name\":\"jobweaver-bench-"
                + "probe\",\"interval\":\"PT60S\",\"job\":{");
        assertThat(console.toString()).contains("schedules: probing POST /api/schedules");
    }

    @Test
    void theScheduleProbeDeletesItsSchedule() throws IOException {
        WorkloadRunner runner = runner((exchange, body) -> {
            if (exchange.getRequestMethod().equals("DELETE")) {
                answer(exchange, 204, "");
            } else {
                answer(exchange, 201, "{\"id\":\"" + SCHEDULE + "\",\"nextRunAt\":\"2026-01-01T00:01:00Z\"}");
            }
        }, "schedules");
        assertThat(runner.probeSchedules("schedules")).isNull();
        assertThat(api.requests).hasSize(2);
        assertThat(api.requests.get(1)).isEqualTo("DELETE /api/schedules/" + SCHEDULE + " ");
    }

    @Test
    void aProbeScheduleThatCannotBeDeletedIsPausedAndOneThatCannotBeEitherIsSaid() throws IOException {
        WorkloadRunner runner = runner((exchange, body) -> {
            String path = exchange.getRequestURI().getPath();
            if (exchange.getRequestMethod().equals("DELETE")) {
                answer(exchange, 500, "boom");
            } else if (path.endsWith("/pause")) {
                answer(exchange, 409, "no");
            } else {
                answer(exchange, 201, "{\"id\":\"" + SCHEDULE + "\"}");
            }
        }, "schedules");
        assertThat(runner.probeSchedules("schedules")).isEqualTo("the probe schedule " + SCHEDULE + " could be "
                + "neither deleted nor paused: DELETE answered 500 boom, pause 409 no");
        assertThat(api.requests.get(2)).isEqualTo("POST /api/schedules/" + SCHEDULE + "/pause ");
    }
}
