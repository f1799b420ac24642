package dev.jobweaver.api.schedule;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.api.testing.Schedules;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Creating, reading, listing, replacing, pausing, resuming and deleting schedules over REST. */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class ScheduleResourceTest {

    @Test
    void createAnswers201WithLocationDefaultsAndNextRun() {
        Instant before = Instant.now();
        Response response = Schedules.create("""
                {"name":"nightly","cron":"0 2 * * *","timezone":"Europe/Amsterdam","job":%s}""".formatted(Jobs.VALID));

        assertThat(response.statusCode()).isEqualTo(201);
        JsonPath body = response.jsonPath();
        String id = body.getString("id");
        assertThat(response.header("Location")).isEqualTo("/api/schedules/" + id);
        assertThat(body.getString("name")).isEqualTo("nightly");
        assertThat(body.getString("cron")).isEqualTo("0 2 * * *");
        assertThat(body.getString("interval")).isNull();
        assertThat(body.getString("timezone")).isEqualTo("Europe/Amsterdam");
        assertThat(body.getString("misfire")).isEqualTo("FIRE_ONCE");
        assertThat(body.getString("overlap")).isEqualTo("ALLOW");
        assertThat(body.getBoolean("paused")).isFalse();
        assertThat(body.getString("tenant")).isEqualTo("default");
        assertThat(body.getLong("version")).isEqualTo(1);
        assertThat(body.getString("job.jobType")).isEqualTo("SIMULATION");
        assertThat(body.getInt("job.maxRetryCount")).isEqualTo(2);
        assertThat(body.getString("job.payload.steps[0].message")).isEqualTo("hi");
        Instant next = Instant.parse(body.getString("nextRunAt"));
        assertThat(next).isAfter(before).isBefore(before.plus(Duration.ofHours(25)));
        assertThat(next.atZone(java.time.ZoneId.of("Europe/Amsterdam")).getHour()).isEqualTo(2);
        assertThat(body.getString("createdAt")).isNotNull();
        assertThat(body.getString("updatedAt")).isEqualTo(body.getString("createdAt"));

        JsonPath read = given().get("/api/schedules/" + id).then().statusCode(200).extract().jsonPath();
        assertThat(read.getString("id")).isEqualTo(id);
        assertThat(read.getString("nextRunAt")).isEqualTo(body.getString("nextRunAt"));
        assertThat(read.getString("job.payload.steps[1].action")).isEqualTo("SLEEP");
    }

    @Test
    void intervalScheduleDefaultsItsRetriesAndTicksFromItsCreation() {
        JsonPath body = Schedules.createOne("""
                {"name":"every 10 s","interval":"PT10S","misfire":"SKIP","overlap":"SKIP",\
                "job":{"jobType":"SIMULATION","payload":{"steps":[{"action":"LOG","message":"x","extra":1}]}}}""");

        assertThat(body.getString("interval")).isEqualTo("PT10S");
        assertThat(body.getString("cron")).isNull();
        assertThat(body.getString("timezone")).isEqualTo("UTC");
        assertThat(body.getString("misfire")).isEqualTo("SKIP");
        assertThat(body.getString("overlap")).isEqualTo("SKIP");
        assertThat(body.getInt("job.maxRetryCount")).as("the default, made explicit").isEqualTo(3);
        assertThat(body.getMap("job.payload.steps[0]")).as("normalised as POST /api/jobs does")
                .doesNotContainKey("extra");
        Instant created = Instant.parse(body.getString("createdAt"));
        assertThat(Instant.parse(body.getString("nextRunAt"))).isEqualTo(created.plusSeconds(10));
    }

    @Test
    void pausedScheduleHasNoNextRunAndResumeBringsItBack() {
        String id = Schedules.createOne();

        JsonPath paused = given().post("/api/schedules/" + id + "/pause").then().statusCode(200).extract().jsonPath();
        assertThat(paused.getBoolean("paused")).isTrue();
        assertThat(paused.getString("nextRunAt")).isNull();
        assertThat(paused.getLong("version")).isEqualTo(2);

        JsonPath again = given().post("/api/schedules/" + id + "/pause").then().statusCode(200).extract().jsonPath();
        assertThat(again.getLong("version")).as("already paused: unchanged").isEqualTo(2);

        JsonPath resumed = given().post("/api/schedules/" + id + "/resume").then().statusCode(200).extract().jsonPath();
        assertThat(resumed.getBoolean("paused")).isFalse();
        assertThat(resumed.getString("nextRunAt")).isNotNull();
        assertThat(resumed.getLong("version")).isEqualTo(3);
    }

    @Test
    void replaceChangesTheDefinitionAndReanchorsAChangedInterval() throws Exception {
        JsonPath created = Schedules.createOne("""
                {"name":"a","interval":"PT1H","job":%s}""".formatted(Jobs.VALID));
        String id = created.getString("id");
        Thread.sleep(20);

        JsonPath replaced = given().contentType(ContentType.JSON).body("""
                {"name":"b","interval":"PT30M","paused":true,"job":{"jobType":"SIMULATION","payload":{"steps":[{"action":"LOG","message":"b"}]}}}""")
                .put("/api/schedules/" + id).then().statusCode(200).extract().jsonPath();

        assertThat(replaced.getString("name")).isEqualTo("b");
        assertThat(replaced.getString("interval")).isEqualTo("PT30M");
        assertThat(replaced.getBoolean("paused")).isTrue();
        assertThat(replaced.getLong("version")).isEqualTo(2);
        assertThat(replaced.getString("job.payload.steps[0].message")).isEqualTo("b");
        assertThat(replaced.getString("createdAt")).isEqualTo(created.getString("createdAt"));
        assertThat(Instant.parse(replaced.getString("updatedAt")))
                .isAfter(Instant.parse(created.getString("updatedAt")));

        JsonPath resumed = given().post("/api/schedules/" + id + "/resume").then().statusCode(200).extract().jsonPath();
        Instant updated = Instant.parse(replaced.getString("updatedAt"));
        assertThat(Instant.parse(resumed.getString("nextRunAt"))).as("30 min from the change, not from the creation")
                .isEqualTo(updated.plus(Duration.ofMinutes(30)));
    }

    @Test
    void deleteAnswers204ThenTheScheduleIsGone() {
        String id = Schedules.createOne();

        given().delete("/api/schedules/" + id).then().statusCode(204);

        given().get("/api/schedules/" + id).then().statusCode(404)
                .body("errorCode", org.hamcrest.Matchers.equalTo("API.SCHEDULE_NOT_FOUND"));
        given().delete("/api/schedules/" + id).then().statusCode(404);
        given().post("/api/schedules/" + id + "/pause").then().statusCode(404);
    }

    @Test
    void listPagesNewestFirstAndFiltersByTenant() {
        String tenant = "t" + UUID.randomUUID().toString().substring(0, 8);
        String first = Schedules.createOne("""
                {"name":"one","cron":"@daily","tenant":"%s","job":%s}""".formatted(tenant, Jobs.VALID)).getString("id");
        String second = Schedules.createOne("""
                {"name":"two","cron":"@hourly","job":{"jobType":"SIMULATION","tenant":"%s","payload":{"steps":[{"action":"LOG","message":"x"}]}}}"""
                .formatted(tenant)).getString("id");
        Schedules.createOne();

        JsonPath page = given().queryParam("tenant", tenant).queryParam("size", 1).get("/api/schedules")
                .then().statusCode(200).extract().jsonPath();
        assertThat(page.getList("schedules.id")).containsExactly(second);
        assertThat(page.getInt("page")).isZero();
        assertThat(page.getInt("size")).isEqualTo(1);
        assertThat(page.getLong("totalElements")).isEqualTo(2);
        assertThat(page.getInt("totalPages")).isEqualTo(2);

        JsonPath next = given().queryParam("tenant", tenant).queryParam("size", 1).queryParam("page", 1)
                .get("/api/schedules").then().statusCode(200).extract().jsonPath();
        assertThat(next.getList("schedules.id")).containsExactly(first);
        assertThat(next.getString("schedules[0].tenant")).isEqualTo(tenant);
        assertThat(next.getString("schedules[0].job.tenant")).as("the schedule's tenant, given to its job")
                .isEqualTo(tenant);

        List<String> all = given().queryParam("size", 100).get("/api/schedules").then().statusCode(200).extract()
                .jsonPath().getList("schedules.id");
        assertThat(all).contains(first, second);
    }
}
