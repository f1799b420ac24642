package dev.jobweaver.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The notify workload's receiver: what it keeps of a delivery and how it answers. */
class NotifyEndpointTest {

    private static final UUID JOB = UUID.fromString("6f1c1a52-3c55-4d4e-9f0e-2d5f7b9a0c11");

    @Test
    void aDeliveryIsKeptAsItCameWithTheFieldsOfItsBody() throws Exception {
        String body = "{\"type\":\"job.completed\",\"jobId\":\"" + JOB + "\",\"status\":\"COMPLETED\","
                + "\"finishedAt\":\"2026-01-01T00:00:00.100Z\"}";
        try (NotifyEndpoint receiver = NotifyEndpoint.start(); HttpClient http = HttpClient.newHttpClient()) {
            assertThat(receiver.url()).matches("http://127\\.0\\.0\\.1:\\d+/hook");
            Instant before = Instant.now();
            HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(receiver.url()))
                    .header("webhook-id", "msg_1").header("webhook-timestamp", "1767225600")
                    .header("webhook-signature", "v1,abc").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(answer.statusCode()).isEqualTo(204);
            assertThat(receiver.received(JOB)).isTrue();
            assertThat(receiver.jobsReceived()).isEqualTo(1);
            NotifyEndpoint.Delivery d = receiver.deliveries().getFirst();
            assertThat(d.webhookId()).isEqualTo("msg_1");
            assertThat(d.timestamp()).isEqualTo("1767225600");
            assertThat(d.signature()).isEqualTo("v1,abc");
            assertThat(new String(d.body(), StandardCharsets.UTF_8)).isEqualTo(body);
            assertThat(d.jobId()).isEqualTo(JOB);
            assertThat(d.type()).isEqualTo("job.completed");
            assertThat(d.finishedAt()).isEqualTo(Instant.parse("2026-01-01T00:00:00.100Z"));
            assertThat(d.receivedAt()).isBetween(before, Instant.now());

            HttpResponse<String> get = http.send(HttpRequest.newBuilder(URI.create(receiver.url())).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(get.statusCode()).isEqualTo(405);
            assertThat(receiver.deliveries()).hasSize(1);
        }
    }

    @Test
    void aBodyThatIsNoJobsEventIsKeptWithoutFields() {
        NotifyEndpoint.Delivery d = NotifyEndpoint.parse("msg_1", "1", "v1,x",
                "not json".getBytes(StandardCharsets.UTF_8), Instant.EPOCH);
        assertThat(d.jobId()).isNull();
        assertThat(d.finishedAt()).isNull();
        NotifyEndpoint.Delivery offset = NotifyEndpoint.parse("msg_1", "1", "v1,x",
                ("{\"jobId\":\"nope\",\"finishedAt\":\"2026-01-01T01:00:00+01:00\"}").getBytes(StandardCharsets.UTF_8),
                Instant.EPOCH);
        assertThat(offset.jobId()).isNull();
        assertThat(offset.finishedAt()).isEqualTo(Instant.parse("2026-01-01T00:00:00Z"));
    }
}
