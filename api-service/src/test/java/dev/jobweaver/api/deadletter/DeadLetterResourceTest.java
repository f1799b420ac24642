package dev.jobweaver.api.deadletter;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.Database;
import dev.jobweaver.api.testing.DeadLetters;
import dev.jobweaver.api.testing.JobCommands;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * GET /api/dead-letters and /api/dead-letters/{jobId}: OPEN ones by default, newest failure first, filtered by tenant,
 * type and state (several comma-separated), paged; one read by its job id, fields without a value left out; a job
 * without a dead letter 404; a deleted job's dead letter gone with it.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class DeadLetterResourceTest {

    @Test
    void theListShowsTheOpenOnesNewestFirstAndFiltersByTenantTypeAndState() throws Exception {
        String tenant = DeadLetters.newTenant();
        Instant base = Instant.now().minusSeconds(3600).truncatedTo(ChronoUnit.MICROS);
        List<String> stored = DeadLetters.storeOpen(tenant, base, Duration.ofSeconds(10),
                "SIMULATION", "HTTP", "SIMULATION", "SIMULATION", "SIMULATION");
        String oldest = stored.get(0);
        String middle = stored.get(1);
        String newest = stored.get(2);
        String discarded = stored.get(3);
        String requeued = stored.get(4);
        setState(discarded, "DISCARDED");
        setState(requeued, "REQUEUED");

        JsonPath open = list("tenant=" + tenant);
        assertThat(open.getList("deadLetters.jobId")).containsExactly(newest, middle, oldest);
        assertThat(open.getList("deadLetters.state")).containsOnly("OPEN");
        assertThat(open.getInt("page")).isZero();
        assertThat(open.getInt("size")).isEqualTo(20);
        assertThat(open.getLong("totalElements")).isEqualTo(3);
        assertThat(open.getInt("totalPages")).isEqualTo(1);

        assertThat(list("tenant=" + tenant + "&jobType=HTTP").getList("deadLetters.jobId")).containsExactly(middle);
        assertThat(list("tenant=" + tenant + "&state=DISCARDED").getList("deadLetters.jobId"))
                .containsExactly(discarded);
        assertThat(list("tenant=" + tenant + "&state=OPEN,REQUEUED").getList("deadLetters.jobId"))
                .containsExactly(requeued, newest, middle, oldest);
        assertThat(list("tenant=" + tenant + "&state=OPEN,REQUEUED,DISCARDED").getLong("totalElements"))
                .isEqualTo(5);
        assertThat(list("tenant=" + DeadLetters.newTenant()).getList("deadLetters")).isEmpty();
    }

    @Test
    void theListIsPaged() throws Exception {
        String tenant = DeadLetters.newTenant();
        Instant base = Instant.now().minusSeconds(7200).truncatedTo(ChronoUnit.MICROS);
        List<String> stored = DeadLetters.storeOpen(tenant, base, Duration.ofSeconds(1),
                "SIMULATION", "SIMULATION", "SIMULATION");
        String first = stored.get(0);
        String second = stored.get(1);
        String third = stored.get(2);

        JsonPath page0 = list("tenant=" + tenant + "&size=2");
        assertThat(page0.getList("deadLetters.jobId")).containsExactly(third, second);
        assertThat(page0.getInt("totalPages")).isEqualTo(2);
        JsonPath page1 = list("tenant=" + tenant + "&size=2&page=1");
        assertThat(page1.getList("deadLetters.jobId")).containsExactly(first);
        assertThat(page1.getInt("page")).isEqualTo(1);
        assertThat(page1.getLong("totalElements")).isEqualTo(3);
    }

    @Test
    void oneIsReadByItsJobIdWithTheFieldsThatHaveAValue() throws Exception {
        String tenant = DeadLetters.newTenant();
        Instant failedAt = Instant.now().minusSeconds(5).truncatedTo(ChronoUnit.MICROS);
        String jobId = DeadLetters.storeOpen(tenant, "SIMULATION", failedAt);

        Response response = given().get("/api/dead-letters/" + jobId);

        assertThat(response.statusCode()).as(response.asString()).isEqualTo(200);
        JsonPath body = response.jsonPath();
        Map<String, Object> fields = body.getMap("");
        assertThat(fields).containsOnlyKeys("jobId", "jobType", "tenant", "labels", "state", "reason", "attempts",
                "lastError", "failedAt", "traceId", "deadCount", "requeueCount");
        assertThat(body.getString("jobId")).isEqualTo(jobId);
        assertThat(body.getString("jobType")).isEqualTo("SIMULATION");
        assertThat(body.getString("tenant")).isEqualTo(tenant);
        assertThat(body.getMap("labels")).isEqualTo(Map.of("team", "billing"));
        assertThat(body.getString("state")).isEqualTo("OPEN");
        assertThat(body.getString("reason")).isEqualTo("boom");
        assertThat(body.getInt("attempts")).isEqualTo(3);
        assertThat(Instant.parse(body.getString("failedAt"))).isEqualTo(failedAt);
        assertThat(body.getInt("deadCount")).isEqualTo(1);
        assertThat(body.getInt("requeueCount")).isZero();
    }

    @Test
    void aJobWithoutADeadLetterIs404() {
        String jobId = UUID.randomUUID().toString();

        Response response = given().get("/api/dead-letters/" + jobId);

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.jsonPath().getString("errorCode")).isEqualTo("API.DEAD_LETTER_NOT_FOUND");
        assertThat(response.jsonPath().getString("message")).contains(jobId);
    }

    @Test
    void aDeletedJobsDeadLetterIsDeletedWithIt() throws Exception {
        String jobId = DeadLetters.storeOpen(Instant.now());
        JobCommands.setStatus(jobId, JobStatus.FAILED);

        assertThat(JobCommands.delete(jobId).statusCode()).isEqualTo(204);

        assertThat(DeadLetters.row(jobId)).isNull();
        assertThat(given().get("/api/dead-letters/" + jobId).statusCode()).isEqualTo(404);
    }

    private static JsonPath list(String query) {
        Response response = given().get("/api/dead-letters?" + query);
        assertThat(response.statusCode()).as(response.asString()).isEqualTo(200);
        return response.jsonPath();
    }

    /** Sets the dead letter's state directly, as a review would have. */
    static void setState(String jobId, String state) throws Exception {
        try (Connection db = Database.connect(); PreparedStatement update = db.prepareStatement(
                "UPDATE dead_letters SET state = ?, discarded_at = CASE WHEN ? = 'DISCARDED' THEN now() END,"
                        + " discard_reason = CASE WHEN ? = 'DISCARDED' THEN 'test' END,"
                        + " requeued_at = CASE WHEN ? = 'REQUEUED' THEN now() END,"
                        + " requeue_count = CASE WHEN ? = 'REQUEUED' THEN 1 ELSE 0 END WHERE job_id = ?")) {
            for (int i = 1; i <= 5; i++) {
                update.setString(i, state);
            }
            update.setObject(6, UUID.fromString(jobId));
            assertThat(update.executeUpdate()).isEqualTo(1);
        }
    }
}
