package dev.jobweaver.api.schedule;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.Schedules;
import dev.jobweaver.api.testing.Workflows;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A schedule's history: {@code firedCount} and {@code lastFiredAt} on every answer with the schedule, counted as its
 * runs are made (jobs and workflow runs alike), and {@code GET /api/schedules/{id}/jobs} paging the jobs it made.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class ScheduleHistoryTest {

    @Test
    void aNewScheduleHasMadeNothing() {
        JsonPath created = Schedules.createOne(Schedules.VALID);
        String id = created.getString("id");

        assertThat(created.getLong("firedCount")).isZero();
        assertThat(created.getMap("$")).containsEntry("lastFiredAt", null);
        JsonPath read = read(id);
        assertThat(read.getLong("firedCount")).isZero();
        assertThat(read.getString("lastFiredAt")).isNull();
        assertThat(given().get("/api/schedules/" + id + "/jobs").then().statusCode(200).extract().jsonPath()
                .getList("jobs")).isEmpty();
    }

    @Test
    void eachRunIsCountedAndItsJobsArePagedNewestFirst() {
        String id = Schedules.createOne();
        String other = Schedules.createOne();
        Instant before = Instant.now().minusMillis(1);
        List<String> made = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            made.add(trigger(id).jsonPath().getString("jobId"));
        }
        trigger(other);

        JsonPath read = read(id);
        assertThat(read.getLong("firedCount")).isEqualTo(3);
        assertThat(Instant.parse(read.getString("lastFiredAt"))).isBetween(before, Instant.now());
        JsonPath listed = given().get("/api/schedules").then().statusCode(200).extract().jsonPath();
        assertThat(listed.getLong("schedules.find { it.id == '" + id + "' }.firedCount")).isEqualTo(3);

        JsonPath all = given().get("/api/schedules/" + id + "/jobs").then().statusCode(200).extract().jsonPath();
        assertThat(all.getList("jobs.id")).containsExactlyElementsOf(made.reversed());
        assertThat(all.getList("jobs.scheduleId")).containsOnly(id);
        JsonPath second = given().queryParam("page", 1).queryParam("size", 2).get("/api/schedules/" + id + "/jobs")
                .then().statusCode(200).extract().jsonPath();
        assertThat(second.getList("jobs.id")).containsExactly(made.getFirst());
        assertThat(second.getLong("totalElements")).isEqualTo(3);
        assertThat(second.getInt("totalPages")).isEqualTo(2);
    }

    @Test
    void aWorkflowsRunsAreCountedToo() {
        String workflowId = Workflows.createOne();
        String id = Schedules.createOne("{\"name\":\"nightly\",\"cron\":\"0 2 * * *\",\"paused\":true,"
                + "\"workflowId\":\"" + workflowId + "\"}").getString("id");

        assertThat(trigger(id).jsonPath().getString("runId")).isNotBlank();

        assertThat(read(id).getLong("firedCount")).isEqualTo(1);
        assertThat(given().get("/api/schedules/" + id + "/jobs").then().statusCode(200).extract().jsonPath()
                .getList("jobs")).as("a workflow's schedule makes runs, not jobs").isEmpty();
    }

    @Test
    void theJobsOfAScheduleNobodyHasAre404() {
        Response response = given().get("/api/schedules/" + Schedules.unknownId() + "/jobs");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.jsonPath().getString("errorCode")).isEqualTo("API.SCHEDULE_NOT_FOUND");
    }

    @Test
    void badInputToTheJobsIs400NamingIt() {
        String id = Schedules.createOne();

        Response badId = given().get("/api/schedules/not-a-uuid/jobs");
        Response badPage = given().queryParam("page", -1).get("/api/schedules/" + id + "/jobs");
        Response badSize = given().queryParam("size", "many").get("/api/schedules/" + id + "/jobs");

        assertThat(badId.statusCode()).isEqualTo(400);
        assertThat(badId.jsonPath().getString("message")).contains("path parameter id", "UUID");
        assertThat(badPage.statusCode()).isEqualTo(400);
        assertThat(badPage.jsonPath().getString("message")).contains("page");
        assertThat(badSize.statusCode()).isEqualTo(400);
        assertThat(badSize.jsonPath().getString("message")).contains("size");
    }

    private static Response trigger(String scheduleId) {
        Response response = given().post("/api/schedules/" + scheduleId + "/trigger");
        assertThat(response.statusCode()).as(response.asString()).isEqualTo(202);
        return response;
    }

    private static JsonPath read(String scheduleId) {
        return given().get("/api/schedules/" + scheduleId).then().statusCode(200).extract().jsonPath();
    }
}
