package dev.jobweaver.api.schedule;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.api.testing.KafkaProbe;
import dev.jobweaver.api.testing.Schedules;
import dev.jobweaver.common.event.JobCreatedEvent;
import dev.jobweaver.common.job.JobOrigin;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /api/schedules/{id}/trigger} makes one job at once from the template, paused or not, with its origin;
 * {@code GET /api/jobs?scheduleId=} lists a schedule's jobs and nothing else.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class ScheduleResourceTriggerTest {

    private static final String TRACE_ID = "0af7651916cd43dd8448eb211c80319c";

    @Inject
    ObjectMapper mapper;

    @Inject
    MeterRegistry registry;

    @Test
    void triggerMakesAJobNowWithItsOriginInTheClientsTrace() throws Exception {
        String scheduleId = Schedules.createOne();
        given().post("/api/schedules/" + scheduleId + "/pause").then().statusCode(200);
        double before = Jobs.count(registry, "jobweaver.schedule.jobs", "origin", "trigger");
        Instant asked = Instant.now();

        try (KafkaProbe created = KafkaProbe.atEndOf(Topics.JOB_CREATED)) {
            Response response = given().header("traceparent", "00-" + TRACE_ID + "-b7ad6b7169203331-01")
                    .post("/api/schedules/" + scheduleId + "/trigger");

            assertThat(response.statusCode()).as(response.asString()).isEqualTo(202);
            JsonPath body = response.jsonPath();
            String jobId = body.getString("jobId");
            assertThat(body.getString("scheduleId")).isEqualTo(scheduleId);
            assertThat(body.getString("traceId")).isEqualTo(TRACE_ID);
            Instant scheduledFor = Instant.parse(body.getString("scheduledFor"));
            assertThat(scheduledFor).isBetween(asked.minusSeconds(1), Instant.now());
            assertThat(response.header("Location")).isEqualTo("/api/jobs/" + jobId);

            JsonPath job = Jobs.get(jobId);
            assertThat(job.getString("scheduleId")).isEqualTo(scheduleId);
            assertThat(Instant.parse(job.getString("scheduledFor"))).isEqualTo(scheduledFor);
            assertThat(job.getString("status")).isEqualTo("PENDING");

            JobCreatedEvent event = created.first(jobId, mapper, JobCreatedEvent.class);
            assertThat(event.origin()).isEqualTo(new JobOrigin(UUID.fromString(scheduleId), scheduledFor));
        }
        assertThat(Jobs.count(registry, "jobweaver.schedule.jobs", "origin", "trigger")).isEqualTo(before + 1);
    }

    @Test
    void triggerOfADeletedScheduleIs404() {
        String scheduleId = Schedules.createOne();
        given().delete("/api/schedules/" + scheduleId).then().statusCode(204);

        given().post("/api/schedules/" + scheduleId + "/trigger").then().statusCode(404)
                .body("errorCode", org.hamcrest.Matchers.equalTo("API.SCHEDULE_NOT_FOUND"));
    }

    @Test
    void jobsListFiltersBySchedule() {
        String scheduleId = Schedules.createOne();
        String other = Schedules.createOne();
        String first = given().post("/api/schedules/" + scheduleId + "/trigger").jsonPath().getString("jobId");
        String second = given().post("/api/schedules/" + scheduleId + "/trigger").jsonPath().getString("jobId");
        given().post("/api/schedules/" + other + "/trigger").then().statusCode(202);
        String submitted = Jobs.submitOne();

        JsonPath page = Schedules.jobsOf(scheduleId);
        assertThat(page.getList("jobs.id")).containsExactly(second, first);
        assertThat(page.getLong("totalElements")).isEqualTo(2);
        assertThat(page.getList("jobs.scheduleId")).containsOnly(scheduleId);
        assertThat(Jobs.get(submitted).getMap("")).as("a submitted job shows no origin")
                .doesNotContainKeys("scheduleId", "scheduledFor");

        given().queryParam("scheduleId", "nope").get("/api/jobs").then().statusCode(400)
                .body("errorCode", org.hamcrest.Matchers.equalTo("API.INVALID_PARAMETER"))
                .body("message", org.hamcrest.Matchers.containsString("query parameter scheduleId must be a UUID"));
    }
}
