package dev.jobweaver.api.notification;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.api.testing.DeliveryTestSupport;
import dev.jobweaver.api.testing.FastDeliveries;
import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.api.testing.KafkaProbe;
import dev.jobweaver.api.testing.StatusEvents;
import dev.jobweaver.api.testing.Subscriptions;
import dev.jobweaver.testing.WebhookReceiver.Received;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.QuarantineReason;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;

/**
 * The notifications consumer of job-status: a subscribed change becomes exactly one signed delivery (a redelivered
 * status none more), a job type's subscription matches its jobs, and a malformed record is quarantined while the next
 * one is delivered.
 */
@QuarkusTest
@TestProfile(FastDeliveries.class)
@JobWeaverTest(database = "jobweaver_api")
class NotificationMatcherTest extends DeliveryTestSupport {

    @Inject
    NotificationMetrics metrics;

    @Test
    void aCompletedJobIsDeliveredOnceSignedAndARedeliveredStatusMakesNoSecondDelivery() throws Exception {
        String jobId = Jobs.submitOne();
        String subscription = Subscriptions.subscribe(receiver, "done", "jobId", jobId, "COMPLETED", "STARTED");

        StatusEvents.send(mapper, jobId, JobStatus.COMPLETED, 2, 1, null);

        await().atMost(Duration.ofSeconds(20)).until(() -> receiver.count("done", "job.completed") >= 1);
        Received delivery = receiver.receivedBy("done").getFirst();
        assertThat(delivery.verified()).as(delivery.problem()).isTrue();
        assertThat(delivery.webhookId()).isEqualTo(DeliveryStore.deliveryId(UUID.fromString(subscription),
                UUID.fromString(jobId), 2, "COMPLETED").toString());
        assertThat(delivery.timestamp()).isCloseTo(Instant.now().getEpochSecond(), org.assertj.core.data.Offset
                .offset(30L));
        JsonNode body = mapper.readTree(delivery.body());
        assertThat(body.get("type").asText()).isEqualTo("job.completed");
        assertThat(body.get("jobId").asText()).isEqualTo(jobId);
        assertThat(body.get("jobType").asText()).isEqualTo("SIMULATION");
        assertThat(body.get("status").asText()).isEqualTo("COMPLETED");
        assertThat(body.get("attempts").asInt()).isEqualTo(1);
        assertThat(body.get("retryCount").asInt()).isZero();
        assertThat(body.get("traceId").asText()).isEqualTo("0af7651916cd43dd8448eb211c80319c");
        assertThat(body.get("subscriptionId").asText()).isEqualTo(subscription);
        assertThat(Instant.parse(body.get("timestamp").asText())).isBefore(Instant.now());
        assertThat(Instant.parse(body.get("finishedAt").asText())).isBefore(Instant.now());
        assertThat(body.has("lastError")).as("null fields are left out").isFalse();
        assertThat(body.has("scheduleId")).isFalse();

        // the same status again, then a later change of the same job (same partition, so consumed after it)
        StatusEvents.send(mapper, jobId, JobStatus.COMPLETED, 2, 1, null);
        StatusEvents.send(mapper, jobId, JobStatus.RUNNING, 3, 2, null);
        await().atMost(Duration.ofSeconds(20)).until(() -> receiver.count("done", "job.started") >= 1);

        assertThat(receiver.count("done", "job.completed")).as("deliveries of the redelivered COMPLETED")
                .isEqualTo(1);
        assertThat(receiver.countId(delivery.webhookId())).isEqualTo(1);
    }

    @Test
    void aJobTypeSubscriptionMatchesEveryJobOfTheType() throws Exception {
        String httpJob = given().contentType(ContentType.JSON)
                .body("{\"jobType\":\"HTTP\",\"payload\":{\"method\":\"GET\",\"url\":\"https://example.com\"}}")
                .post("/api/jobs").then().statusCode(202).extract().jsonPath().getString("jobId");
        String simulationJob = Jobs.submitOne();
        String subscription = Subscriptions.subscribe(receiver, "http-type", "jobType", "HTTP", "FAILED");
        try {
            StatusEvents.send(mapper, simulationJob, JobStatus.FAILED, 2, 1, "boom");
            StatusEvents.send(mapper, httpJob, JobStatus.FAILED, 2, 1, "connection reset");

            await().atMost(Duration.ofSeconds(20)).until(() -> receiver.count("http-type", "job.failed") >= 1);
            Thread.sleep(500); // a delivery of the SIMULATION job would have arrived by now too

            assertThat(receiver.receivedBy("http-type")).hasSize(1);
            JsonNode body = mapper.readTree(receiver.receivedBy("http-type").getFirst().body());
            assertThat(body.get("jobId").asText()).isEqualTo(httpJob);
            assertThat(body.get("jobType").asText()).isEqualTo("HTTP");
            assertThat(body.get("lastError").asText()).isEqualTo("connection reset");
        } finally {
            given().delete("/api/subscriptions/" + subscription).then().statusCode(204);
        }
    }

    @Test
    void aMalformedRecordIsQuarantinedAndTheNextOneDelivered() {
        String jobId = Jobs.submitOne();
        Subscriptions.subscribe(receiver, "after-poison", "jobId", jobId, "CANCELLED");
        double unreadable = metrics.quarantinedCount(QuarantineReason.UNREADABLE);

        KafkaProbe.send(Topics.JOB_STATUS, jobId, "{not json".getBytes(StandardCharsets.UTF_8));
        StatusEvents.send(mapper, jobId, JobStatus.CANCELLED, 2, 0, null);

        await().atMost(Duration.ofSeconds(20)).until(() -> receiver.count("after-poison", "job.cancelled") == 1);
        assertThat(metrics.quarantinedCount(QuarantineReason.UNREADABLE)).as("set aside by this consumer")
                .isEqualTo(unreadable + 1);
    }
}
