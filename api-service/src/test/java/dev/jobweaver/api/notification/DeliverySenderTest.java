package dev.jobweaver.api.notification;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.api.testing.DeliveryTestSupport;
import dev.jobweaver.api.testing.FastDeliveries;
import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.api.testing.StatusEvents;
import dev.jobweaver.api.testing.Subscriptions;
import dev.jobweaver.testing.WebhookReceiver;
import dev.jobweaver.testing.WebhookReceiver.Behaviour;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.testing.JobWeaverTest;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * Sending deliveries (profile FastDeliveries: retries from 200 ms, given up after 4 s, 8 in flight
 * and 2 per subscription): a failure is retried until a 2xx, a delivery that keeps failing is given up, and each
 * attempt is in the delivery log.
 */
@QuarkusTest
@TestProfile(FastDeliveries.class)
@JobWeaverTest(database = "jobweaver_api")
class DeliverySenderTest extends DeliveryTestSupport {

    @Inject
    MeterRegistry registry;

    @Test
    void a500ThenA200MakesTwoAttemptsAndTheDeliveryIsDelivered() {
        String jobId = Jobs.submitOne();
        String subscription = Subscriptions.subscribe(receiver, "flaky", "jobId", jobId, "COMPLETED");
        receiver.failFirst("flaky", 1);
        double delivered = Jobs.count(registry, "jobweaver.webhook.deliveries", "outcome", "delivered");
        double failed = Jobs.count(registry, "jobweaver.webhook.deliveries", "outcome", "failed");
        long latencies = latencyCount();

        StatusEvents.send(mapper, jobId, JobStatus.COMPLETED, 2, 1, null);

        await().atMost(Duration.ofSeconds(20)).until(() -> Subscriptions.log(subscription).size() == 2
                && "DELIVERED".equals(Subscriptions.log(subscription).getFirst().get("state")));
        List<Map<String, Object>> log = Subscriptions.log(subscription);
        Map<String, Object> second = log.get(0);
        Map<String, Object> first = log.get(1);
        assertThat(second).containsEntry("attempt", 2).containsEntry("status", 200).containsEntry("event", "COMPLETED")
                .containsEntry("jobId", jobId).containsEntry("state", "DELIVERED");
        assertThat(second.get("error")).isNull();
        assertThat(first).containsEntry("attempt", 1).containsEntry("status", 500)
                .containsEntry("error", "answered HTTP 500").containsEntry("state", "DELIVERED");
        assertThat(first.get("deliveryId")).isEqualTo(second.get("deliveryId"));
        assertThat(Instant.parse((String) second.get("attemptedAt")))
                .isAfterOrEqualTo(Instant.parse((String) first.get("attemptedAt")).plusMillis(150));
        assertThat(((Number) first.get("durationMs")).longValue()).isGreaterThanOrEqualTo(0);
        assertThat(receiver.receivedBy("flaky")).hasSize(2).allMatch(WebhookReceiver.Received::verified)
                .extracting(WebhookReceiver.Received::webhookId).containsOnly((String) first.get("deliveryId"));
        // at least: deliveries of other tests' subscriptions may still be retried meanwhile
        assertThat(Jobs.count(registry, "jobweaver.webhook.deliveries", "outcome", "delivered"))
                .isGreaterThanOrEqualTo(delivered + 1);
        assertThat(Jobs.count(registry, "jobweaver.webhook.deliveries", "outcome", "failed"))
                .isGreaterThanOrEqualTo(failed + 1);
        assertThat(latencyCount()).isGreaterThanOrEqualTo(latencies + 1);
    }

    @Test
    void aDeliveryThatKeepsFailingIsGivenUpAfterGiveUpAfter() throws Exception {
        String jobId = Jobs.submitOne();
        String subscription = Subscriptions.subscribe(receiver, "broken", "jobId", jobId, "FAILED");
        receiver.behave("broken", Behaviour.FAIL);
        double givenUp = Jobs.count(registry, "jobweaver.webhook.deliveries", "outcome", "given-up");
        Instant sent = Instant.now();

        StatusEvents.send(mapper, jobId, JobStatus.FAILED, 2, 1, "boom");

        await().atMost(Duration.ofSeconds(20)).until(() -> {
            List<Map<String, Object>> log = Subscriptions.log(subscription);
            return !log.isEmpty() && "GIVEN_UP".equals(log.getFirst().get("state"));
        });
        Duration took = Duration.between(sent, Instant.now());
        List<Map<String, Object>> log = Subscriptions.log(subscription);
        // retried (how often within the 4 s depends on the machine's load), every attempt answered 500
        assertThat(log).hasSizeGreaterThanOrEqualTo(2).allMatch(entry -> "GIVEN_UP".equals(entry.get("state"))
                && Integer.valueOf(500).equals(entry.get("status")));
        assertThat(log).extracting(entry -> entry.get("attempt")).startsWith(log.size());
        assertThat(took).as("give-up-after is 4 s").isGreaterThanOrEqualTo(Duration.ofSeconds(4));
        assertThat(Jobs.count(registry, "jobweaver.webhook.deliveries", "outcome", "given-up"))
                .isGreaterThanOrEqualTo(givenUp + 1);
        int attempts = receiver.receivedBy("broken").size();
        assertThat(attempts).isEqualTo(log.size());
        Thread.sleep(1500);
        assertThat(receiver.receivedBy("broken")).as("nothing is sent after giving up").hasSize(attempts);
    }

    private long latencyCount() {
        Timer timer = registry.find("jobweaver.webhook.delivery.latency").timer();
        return timer == null ? 0 : timer.count();
    }

}
