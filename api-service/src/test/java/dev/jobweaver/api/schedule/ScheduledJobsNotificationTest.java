package dev.jobweaver.api.schedule;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.api.testing.DeliveryTestSupport;
import dev.jobweaver.api.testing.FastDeliveries;
import dev.jobweaver.api.testing.Schedules;
import dev.jobweaver.api.testing.Subscriptions;
import dev.jobweaver.testing.WebhookReceiver;
import dev.jobweaver.common.event.ScheduleFiredEvent;
import dev.jobweaver.common.job.JobIds;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * What a schedule's jobs mean to notifications: the job a tick makes is SCHEDULED for the subscribers of its schedule
 * and of its job type, once however often the tick arrives; deleting the schedule deletes its subscriptions.
 */
@QuarkusTest
@TestProfile(FastDeliveries.class)
@JobWeaverTest(database = "jobweaver_api")
class ScheduledJobsNotificationTest extends DeliveryTestSupport {

    @Test
    void aTicksJobIsScheduledForItsSchedulesAndItsTypesSubscribersOnce() throws Exception {
        String scheduleId = Schedules.createOne();
        Subscriptions.subscribe(receiver, "schedule", "scheduleId", scheduleId, "SCHEDULED");
        Subscriptions.subscribe(receiver, "type", "jobType", "SIMULATION", "SCHEDULED");
        Subscriptions.subscribe(receiver, "other", "scheduleId", Schedules.unknownId(), "SCHEDULED");
        Instant tick = Instant.now().truncatedTo(ChronoUnit.MINUTES).plusSeconds(60);
        UUID jobId = JobIds.forTick(UUID.fromString(scheduleId), tick);
        ScheduleFiredEvent fired = new ScheduleFiredEvent(UUID.fromString(scheduleId), 1, jobId, tick,
                Instant.now(), false);

        Schedules.fire(mapper, fired);
        Schedules.fire(mapper, fired); // a tick fired twice: one job, one delivery each

        await().atMost(Duration.ofSeconds(30)).until(() -> receiver.count("schedule", "job.scheduled") >= 1
                && receiver.count("type", "job.scheduled") >= 1);
        // the second tick has been applied once the job exists and a second round of deliveries had time to come
        await().pollDelay(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(10))
                .until(() -> Schedules.jobsOf(scheduleId).getInt("totalElements") == 1);
        assertThat(receiver.count("schedule", "job.scheduled")).isEqualTo(1);
        assertThat(receiver.count("type", "job.scheduled")).isEqualTo(1);
        assertThat(receiver.receivedBy("other")).isEmpty();
        WebhookReceiver.Received delivery = receiver.receivedBy("schedule").getFirst();
        assertThat(delivery.verified()).as(delivery.problem()).isTrue();
        JsonNode body = mapper.readTree(delivery.body());
        assertThat(body.get("jobId").asText()).isEqualTo(jobId.toString());
        assertThat(body.get("scheduleId").asText()).isEqualTo(scheduleId);
        assertThat(Instant.parse(body.get("scheduledFor").asText())).isEqualTo(tick);
    }

    @Test
    void deletingAScheduleDeletesItsSubscriptions() throws Exception {
        String scheduleId = Schedules.createOne();
        String subscription = Subscriptions.subscribe(receiver, "doomed", "scheduleId", scheduleId, "SCHEDULED",
                "COMPLETED");
        String unrelated = Subscriptions.subscribe(receiver, "kept", "scheduleId", Schedules.unknownId(),
                "SCHEDULED");

        given().delete("/api/schedules/" + scheduleId).then().statusCode(204);

        given().get("/api/subscriptions/" + subscription).then().statusCode(404);
        given().get("/api/subscriptions/" + unrelated).then().statusCode(200);
    }
}
