package dev.jobweaver.api.job;

import dev.jobweaver.testing.JobWeaverTest;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** GET /api/jobs/{id} for a job that does not exist, an id that is not a UUID, and a path that does not exist. */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class JobResourceNotFoundTest {

    @Test
    void unknownJobIs404WithItsId() {
        String id = UUID.randomUUID().toString();

        Response response = given().get("/api/jobs/" + id);

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.jsonPath().getString("errorCode")).isEqualTo("API.JOB_NOT_FOUND");
        assertThat(response.jsonPath().getString("jobId")).isEqualTo(id);
        assertThat(response.jsonPath().getString("message")).contains(id);
    }

    @Test
    void idThatIsNotAUuidIs400() {
        Response response = given().get("/api/jobs/not-a-uuid");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.jsonPath().getString("errorCode")).isEqualTo("API.INVALID_PARAMETER");
        assertThat(response.jsonPath().getString("jobId")).isEqualTo("not-a-uuid");
        assertThat(response.jsonPath().getString("message")).contains("id").contains("UUID");
    }

    @Test
    void unknownRouteIs404ErrorResponse() {
        Response response = given().get("/api/nothing-here");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.contentType()).startsWith("application/json");
        assertThat(response.jsonPath().getString("errorCode")).isEqualTo("API.NOT_FOUND");
    }
}
