package dev.jobweaver.api.job;

import static dev.jobweaver.api.testing.Answers.assertRefused;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.JobCommands;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every call on one job (read, attempts, cancel, delete) for a job that does not exist and for an id that is not a
 * UUID, each answer naming the id it was given; and a path that does not exist.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class JobResourceNotFoundTest {

    static Stream<Arguments> everyJobEndpoint() {
        return Stream.of(
                Arguments.of("GET", (Function<String, Response>) id -> given().get("/api/jobs/" + id)),
                Arguments.of("GET attempts",
                        (Function<String, Response>) id -> given().get("/api/jobs/" + id + "/attempts")),
                Arguments.of("cancel", (Function<String, Response>) JobCommands::cancel),
                Arguments.of("DELETE", (Function<String, Response>) JobCommands::delete));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyJobEndpoint")
    void anUnknownJobIs404WithItsId(String endpoint, Function<String, Response> call) {
        String id = UUID.randomUUID().toString();

        Response response = call.apply(id);

        assertRefused(endpoint, response, 404, "API.JOB_NOT_FOUND", id);
        assertThat(response.jsonPath().getString("jobId")).as(endpoint).isEqualTo(id);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyJobEndpoint")
    void anIdThatIsNotAUuidIs400WithIt(String endpoint, Function<String, Response> call) {
        for (String bad : List.of("not-a-uuid", "42")) {
            Response response = call.apply(bad);

            assertRefused(endpoint + " " + bad, response, 400, "API.INVALID_PARAMETER",
                    "path parameter id must be a UUID");
            assertThat(response.jsonPath().getString("jobId")).as(endpoint).isEqualTo(bad);
        }
    }

    @Test
    void unknownRouteIs404ErrorResponse() {
        Response response = given().get("/api/nothing-here");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.contentType()).startsWith("application/json");
        assertThat(response.jsonPath().getString("errorCode")).isEqualTo("API.NOT_FOUND");
    }
}
