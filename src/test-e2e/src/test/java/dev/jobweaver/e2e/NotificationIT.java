package dev.jobweaver.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.e2e.support.E2ePlatform;
import dev.jobweaver.e2e.support.HealthyPlatform;
import dev.jobweaver.e2e.support.JobWeaverClient;
import dev.jobweaver.e2e.support.Jobs;
import dev.jobweaver.testing.WebhookReceiver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * Notifications on the packaged services: each of the six events reaches its subscriber as a signed Standard Webhooks
 * POST (checked by a receiver written from the specification), the delivery log shows them, and deleting a job or a
 * schedule deletes its subscriptions.
 */
@HealthyPlatform
class NotificationIT {

    @Test
    void everyEventReachesItsSubscriberSignedAndDeletesTakeTheSubscriptionsAlong() throws Exception {
        JobWeaverClient api = E2ePlatform.api();
        try (WebhookReceiver receiver = WebhookReceiver.start().whileSecretUnknown(503)) {
            JsonNode schedule = api.postExpecting("/api/schedules", "{\"name\":\"notified\",\"interval\":\"PT2S\","
                    + "\"job\":" + Jobs.noop() + "}", 201);
            String scheduleId = schedule.get("id").asText();
            String scheduleSub = subscribe(api, receiver, "schedule", "\"scheduleId\":\"" + scheduleId + "\"",
                    "SCHEDULED", "STARTED", "COMPLETED");

            // Started later than the subscriptions are made: a FAIL job with one retry, and a job cancelled waiting.
            UUID failing = api.submitAccepted("{\"jobType\":\"SIMULATION\",\"payload\":{\"steps\":[{\"action\":"
                    + "\"FAIL\",\"message\":\"boom\"}]},\"maxRetryCount\":1,\"delayMs\":3000}");
            String failingSub = subscribe(api, receiver, "failing", "\"jobId\":\"" + failing + "\"", "STARTED",
                    "RETRYING", "FAILED");
            UUID waiting = api.submitAccepted("{\"jobType\":\"SIMULATION\",\"payload\":{\"steps\":[{\"action\":"
                    + "\"LOG\",\"message\":\"never\"}]},\"delayMs\":60000}");
            subscribe(api, receiver, "cancelled", "\"jobId\":\"" + waiting + "\"", "CANCELLED");
            assertThat(api.cancel(waiting).status()).isEqualTo(202);

            Map<String, Long> wanted = new LinkedHashMap<>();
            wanted.put("schedule job.scheduled", 1L);
            wanted.put("schedule job.started", 1L);
            wanted.put("schedule job.completed", 1L);
            wanted.put("failing job.started", 2L);
            wanted.put("failing job.retrying", 1L);
            wanted.put("failing job.failed", 1L);
            wanted.put("cancelled job.cancelled", 1L);
            await(() -> wanted.entrySet().stream().allMatch(e -> count(receiver, e.getKey()) >= e.getValue()),
                    Duration.ofSeconds(120), () -> counts(receiver, wanted));

            assertThat(receiver.refused()).as("deliveries whose signature or timestamp did not verify").isEmpty();
            assertThat(receiver.accepted()).allSatisfy(d -> assertThat(d.json().path("jobId").asText()).isNotEmpty());
            long duplicates = receiver.accepted().size()
                    - receiver.accepted().stream().map(WebhookReceiver.Received::webhookId).distinct().count();
            System.out.printf("[measure] notifications: deliveries per subscription and event %s, %d duplicate(s),"
                    + " every signature valid%n", counts(receiver, wanted), duplicates);

            // The receiver counts a delivery before it answers; the sender records it DELIVERED once the answer is in.
            List<String> wantedDelivered = List.of("STARTED", "RETRYING", "FAILED");
            await(() -> delivered(api, failingSub).containsAll(wantedDelivered), Duration.ofSeconds(30),
                    () -> "the failing subscription's log shows DELIVERED " + delivered(api, failingSub));

            api.awaitAll(List.of(failing), JobWeaverClient::terminal, Duration.ofSeconds(30));
            assertThat(api.delete(failing).status()).isEqualTo(204);
            assertThat(api.get("/api/subscriptions/" + failingSub).status()).isEqualTo(404);
            assertThat(api.deletePath("/api/schedules/" + scheduleId).status()).isEqualTo(204);
            assertThat(api.get("/api/subscriptions/" + scheduleSub).status()).isEqualTo(404);
        }
    }

    private static String subscribe(JobWeaverClient api, WebhookReceiver receiver, String name, String target,
                                    String... events) {
        String body = "{" + target + ",\"events\":[\"" + String.join("\",\"", events) + "\"],\"url\":\""
                + receiver.url(name) + "\"}";
        JsonNode created = api.postExpecting("/api/subscriptions", body, 201);
        receiver.secret(name, created.get("secret").asText());
        String id = created.get("id").asText();
        assertThat(api.get("/api/subscriptions/" + id).body().has("secret")).as("the secret is shown once").isFalse();
        return id;
    }

    /** The events of the subscription's deliveries in state DELIVERED, as its delivery log shows them. */
    private static List<String> delivered(JobWeaverClient api, String subscriptionId) {
        List<String> delivered = new ArrayList<>();
        api.get("/api/subscriptions/" + subscriptionId + "/deliveries").body().path("deliveries").forEach(d -> {
            if (d.path("state").asText().equals("DELIVERED")) {
                delivered.add(d.path("event").asText());
            }
        });
        return delivered;
    }

    /** Deliveries received and verified for {@code key}: "{endpoint} {type}". */
    private static long count(WebhookReceiver receiver, String key) {
        int space = key.indexOf(' ');
        return receiver.acceptedCount(key.substring(0, space), key.substring(space + 1));
    }

    private static Map<String, Long> counts(WebhookReceiver receiver, Map<String, Long> wanted) {
        Map<String, Long> counts = new LinkedHashMap<>();
        wanted.keySet().forEach(k -> counts.put(k, count(receiver, k)));
        return counts;
    }

    private static void await(BooleanSupplier done, Duration timeout, java.util.function.Supplier<Object> state) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not everything was delivered within " + timeout + ": " + state.get());
            }
            E2ePlatform.awaitQuietly(250);
        }
    }
}
