package dev.jobweaver.api.notification;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.api.notification.DeliveryStore.ScheduledJob;
import dev.jobweaver.api.testing.DeliveryTestSupport;
import dev.jobweaver.api.testing.FastDeliveries;
import dev.jobweaver.api.testing.JobCommands;
import dev.jobweaver.api.testing.Subscriptions;
import dev.jobweaver.testing.WebhookReceiver;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The SCHEDULED intake the schedules code calls in the transaction that makes a tick's jobs: a delivery per
 * subscription to the schedule or the job type, committed with that transaction or not at all, made once.
 */
@QuarkusTest
@TestProfile(FastDeliveries.class)
@JobWeaverTest(database = "jobweaver_api")
class DeliveryIntakeTest extends DeliveryTestSupport {

    @Inject
    DeliveryIntake intake;

    @Inject
    Pool pool;

    @Test
    void aScheduledJobIsDeliveredToTheSchedulesSubscribersOnce() throws Exception {
        UUID schedule = UUID.randomUUID();
        String subscription = Subscriptions.subscribe(receiver, "ticks", "scheduleId", schedule.toString(),
                "SCHEDULED");
        Subscriptions.subscribe(receiver, "other-schedule", "scheduleId", UUID.randomUUID().toString(),
                "SCHEDULED");
        UUID jobId = UUID.randomUUID();
        Instant scheduledFor = Instant.now().truncatedTo(ChronoUnit.MINUTES);
        List<ScheduledJob> jobs = List.of(new ScheduledJob(jobId, "SIMULATION", schedule, scheduledFor,
                "4bf92f3577b34da6a3ce929d0e0e4736"));

        int made = pool.withTransaction(connection -> intake.scheduled(connection, jobs))
                .await().atMost(Duration.ofSeconds(10));
        intake.wake();

        assertThat(made).isEqualTo(1);
        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.count("ticks", "job.scheduled") == 1);
        WebhookReceiver.Received delivery = receiver.receivedBy("ticks").getFirst();
        assertThat(delivery.verified()).as(delivery.problem()).isTrue();
        assertThat(delivery.webhookId()).isEqualTo(DeliveryStore.deliveryId(UUID.fromString(subscription), jobId,
                0, "SCHEDULED").toString());
        JsonNode body = mapper.readTree(delivery.body());
        assertThat(body.get("type").asText()).isEqualTo("job.scheduled");
        assertThat(body.get("jobId").asText()).isEqualTo(jobId.toString());
        assertThat(body.get("jobType").asText()).isEqualTo("SIMULATION");
        assertThat(body.get("status").asText()).isEqualTo("PENDING");
        assertThat(body.get("scheduleId").asText()).isEqualTo(schedule.toString());
        assertThat(Instant.parse(body.get("scheduledFor").asText())).isEqualTo(scheduledFor);
        assertThat(body.get("traceId").asText()).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
        assertThat(receiver.receivedBy("other-schedule")).isEmpty();

        int again = pool.withTransaction(connection -> intake.scheduled(connection, jobs))
                .await().atMost(Duration.ofSeconds(10));
        assertThat(again).as("the same tick's job again").isZero();
    }

    @Test
    void aRolledBackTransactionLeavesNoDelivery() throws Exception {
        UUID schedule = UUID.randomUUID();
        String subscription = Subscriptions.create("{\"scheduleId\":\"" + schedule + "\",\"events\":[\"SCHEDULED\"],"
                + "\"url\":\"https://hooks.example.com/x\"}").then().statusCode(201).extract().jsonPath()
                .getString("id");
        List<ScheduledJob> jobs = List.of(new ScheduledJob(UUID.randomUUID(), "SIMULATION", schedule, Instant.now(),
                "4bf92f3577b34da6a3ce929d0e0e4736"));

        assertThatThrownBy(() -> pool.withTransaction(connection -> intake.scheduled(connection, jobs)
                        .chain(made -> Uni.createFrom().failure(new IllegalStateException("the job insert failed"))))
                .await().atMost(Duration.ofSeconds(10))).hasMessageContaining("the job insert failed");

        assertThat(JobCommands.rows("deliveries", "subscription_id", subscription)).isZero();
    }
}
