package dev.jobweaver.api.notification;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.api.testing.Database;
import dev.jobweaver.api.testing.DeliveryTestSupport;
import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.api.testing.PerClassSettings;
import dev.jobweaver.api.testing.StatusEvents;
import dev.jobweaver.api.testing.Subscriptions;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * With the production rule (allow-private false), a loopback destination is refused: a 400 naming url and the rule at
 * creation, and, for a subscription made while the rules allowed it, at every attempt, without a request being sent. The profile refuses private and loopback destinations, retries fast and gives up after
 * 4 s.
 */
@QuarkusTest
@TestProfile(PerClassSettings.class)
@JobWeaverTest(database = "jobweaver_api")
class SubscriptionResourceDestinationTest extends DeliveryTestSupport {

    @Test
    void aLoopbackDestinationIs400NamingUrlAndTheRule() {
        for (String url : List.of("http://127.0.0.1:8099/hooks", "http://localhost:8099/hooks", "http://[::1]/hooks",
                "http://10.0.0.7/hooks")) {
            Response response = Subscriptions.create("{\"jobType\":\"HTTP\",\"events\":[\"FAILED\"],\"url\":\"" + url
                    + "\"}");

            assertThat(response.statusCode()).as(url).isEqualTo(400);
            assertThat(response.jsonPath().getString("errorCode")).isEqualTo("API.INVALID_SUBSCRIPTION_REQUEST");
            assertThat(response.jsonPath().getString("message")).as(url).startsWith("url is refused: ")
                    .contains("jobweaver.api.notifications.allow-private");
        }
    }

    @Test
    void everyAttemptJudgesTheDestinationAgain() throws Exception {
        String jobId = Jobs.submitOne();
        // made while the rules allowed loopback (or before the host's DNS changed to it)
        String subscription = UUID.randomUUID().toString();
        try (Connection connection = Database.connect(); PreparedStatement insert = connection.prepareStatement(
                "INSERT INTO subscriptions (id, job_id, events, url, secret, created_at)"
                        + " VALUES (?, ?, '{COMPLETED}', ?, ?, now())")) {
            insert.setObject(1, UUID.fromString(subscription));
            insert.setObject(2, UUID.fromString(jobId));
            insert.setString(3, receiver.url("inside"));
            insert.setString(4, WebhookSignature.newSecret());
            insert.executeUpdate();
        }

        StatusEvents.send(mapper, jobId, JobStatus.COMPLETED, 2, 1, null);

        await().atMost(Duration.ofSeconds(20)).until(() -> !Subscriptions.log(subscription).isEmpty()
                && Subscriptions.log(subscription).getFirst().get("attemptedAt") != null);
        Map<String, Object> attempt = Subscriptions.log(subscription).getLast();
        assertThat(attempt).containsEntry("attempt", 1);
        assertThat(attempt.get("status")).isNull();
        assertThat((String) attempt.get("error")).startsWith("destination refused: ").contains("127.0.0.1")
                .contains("loopback");
        assertThat(receiver.received()).as("nothing is sent to a refused destination").isEmpty();
    }
}
