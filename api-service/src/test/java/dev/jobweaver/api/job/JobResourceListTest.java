package dev.jobweaver.api.job;

import dev.jobweaver.testing.JobWeaverTest;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.testing.Answers;
import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.api.testing.StatusEvents;
import dev.jobweaver.common.job.JobStatus;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** GET /api/jobs: paging, newest first, type and status filters, and refused parameters. */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class JobResourceListTest {

    @Inject
    ObjectMapper mapper;

    @Test
    void pagesAreNewestFirstAndAddUp() {
        List<String> mine = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            mine.add(Jobs.submitOne());
        }

        JsonPath first = given().queryParam("page", 0).queryParam("size", 2).queryParam("type", "SIMULATION")
                .get("/api/jobs").then().statusCode(200).extract().jsonPath();
        assertThat(first.getInt("page")).isZero();
        assertThat(first.getInt("size")).isEqualTo(2);
        long total = first.getLong("totalElements");
        assertThat(total).isGreaterThanOrEqualTo(3);
        assertThat(first.getInt("totalPages")).isEqualTo((int) ((total + 1) / 2));
        // nothing else submits while this test runs: the two newest are the last two submitted, newest first
        assertThat(first.getList("jobs.id", String.class)).containsExactly(mine.get(2), mine.get(1));

        JsonPath second = given().queryParam("page", 1).queryParam("size", 2).queryParam("type", "SIMULATION")
                .get("/api/jobs")
                .then().statusCode(200).extract().jsonPath();
        assertThat(second.getList("jobs.id", String.class).getFirst()).isEqualTo(mine.get(0));

        // walking every page sees each job exactly once, in non-increasing createdAt order
        Set<String> ids = new HashSet<>();
        List<Instant> created = new ArrayList<>();
        int pages = first.getInt("totalPages");
        for (int page = 0; page < pages; page++) {
            // the same filter as the first page, whose total this walk adds up (other tests store HTTP jobs too)
            JsonPath p = given().queryParam("page", page).queryParam("size", 2).queryParam("type", "SIMULATION")
                    .get("/api/jobs")
                    .then().statusCode(200).extract().jsonPath();
            assertThat(p.getList("jobs")).hasSizeLessThanOrEqualTo(2);
            p.getList("jobs.id", String.class).forEach(id -> assertThat(ids.add(id)).as("seen once: " + id).isTrue());
            p.getList("jobs.createdAt", String.class).forEach(t -> created.add(Instant.parse(t)));
        }
        assertThat(ids).hasSize((int) total).containsAll(mine);
        assertThat(created).isSortedAccordingTo((a, b) -> b.compareTo(a));
    }

    @Test
    void statusFilterReturnsOnlyThatStatus() {
        String completed = Jobs.submitOne();
        String pending = Jobs.submitOne();
        StatusEvents.send(mapper, completed, JobStatus.COMPLETED, 3, 1, null);
        await().atMost(Duration.ofSeconds(20)).until(() ->
                "COMPLETED".equals(given().get("/api/jobs/" + completed).jsonPath().getString("status")));

        JsonPath page = given().queryParam("status", "COMPLETED").queryParam("size", 100).get("/api/jobs")
                .then().statusCode(200).extract().jsonPath();

        List<String> ids = page.getList("jobs.id", String.class);
        assertThat(ids).contains(completed).doesNotContain(pending);
        assertThat(page.getList("jobs.status", String.class)).containsOnly("COMPLETED");
        assertThat(page.getLong("totalElements")).isEqualTo(ids.size());

        JsonPath both = given().queryParam("status", "PENDING").queryParam("type", "SIMULATION")
                .queryParam("size", 100).get("/api/jobs").then().statusCode(200).extract().jsonPath();
        assertThat(both.getList("jobs.status", String.class)).containsOnly("PENDING");
        assertThat(both.getList("jobs.id", String.class)).doesNotContain(completed);
    }

    @Test
    void aJobOfATeamsOwnTypeOnItsOwnQueueIsShownAndFilteredByBoth() {
        String queue = "images-" + Long.toString(System.nanoTime(), 36);
        String id = Answers.expect(Jobs.submit("{\"jobType\":\"image.resize\",\"queue\":\"" + queue + "\","
                + "\"payload\":{\"image\":\"s3://b/k.png\",\"sizes\":[64,128]}}"), 202, "a job of its own type")
                .getString("jobId");
        String plain = Jobs.submitOne();

        JsonPath job = Jobs.get(id);
        assertThat(job.getString("type")).isEqualTo("image.resize");
        assertThat(job.getString("queue")).isEqualTo(queue);
        assertThat(job.getList("payload.sizes")).containsExactly(64, 128);
        assertThat(Jobs.get(plain).getString("queue")).isEqualTo("default");
        JsonPath byQueue = given().queryParam("queue", queue).get("/api/jobs").then().statusCode(200).extract()
                .jsonPath();
        assertThat(byQueue.getList("jobs.id")).containsExactly(id);
        JsonPath byType = given().queryParam("type", "image.resize").queryParam("queue", queue).get("/api/jobs")
                .then().statusCode(200).extract().jsonPath();
        assertThat(byType.getList("jobs.id")).containsExactly(id);
    }

    static Stream<Arguments> badParameters() {
        return Stream.of(
                Arguments.of("page", "-1"),
                Arguments.of("page", "abc"),
                Arguments.of("size", "0"),
                Arguments.of("size", "101"),
                Arguments.of("size", "1.5"),
                Arguments.of("status", "DONE"),
                Arguments.of("type", "BA TCH"), Arguments.of("queue", "Images"));
    }

    @ParameterizedTest(name = "{0}={1}")
    @MethodSource("badParameters")
    void badParameterIs400NamingIt(String name, String value) {
        Response response = given().queryParam(name, value).get("/api/jobs");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.jsonPath().getString("errorCode")).isEqualTo("API.INVALID_PARAMETER");
        assertThat(response.jsonPath().getString("message")).contains("query parameter " + name);
    }
}
