package dev.jobweaver.api.schedule;

import static dev.jobweaver.api.testing.Answers.assertRefused;
import static dev.jobweaver.api.testing.Answers.assertRefusedChangingNothing;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.Answers;
import dev.jobweaver.api.testing.Database;
import dev.jobweaver.api.testing.Endpoints;
import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.api.testing.ListParameters;
import dev.jobweaver.api.testing.Schedules;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The validation matrix of POST and PUT /api/schedules and the bad paths and parameters of every schedule endpoint:
 * one case per rule, each a 4xx ErrorResponse naming the field, nothing stored.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class ScheduleResourceValidationTest {

    private static final String MALFORMED = "API.MALFORMED_JSON";
    private static final String INVALID = "API.INVALID_SCHEDULE_REQUEST";
    private static final String JOB = Jobs.VALID;

    /** GET, PUT, DELETE and each action on one schedule. */
    private static final Endpoints EVERY_ENDPOINT = new Endpoints().get("/api/schedules/{id}")
            .putJson("/api/schedules/{id}", Schedules.VALID).delete("/api/schedules/{id}")
            .post("/api/schedules/{id}/pause").post("/api/schedules/{id}/resume").post("/api/schedules/{id}/trigger");

    static Stream<Arguments> rules() {
        return Stream.of(
                Arguments.of("malformed JSON", "{\"name\":\"a\",", MALFORMED, "not valid JSON"),
                Arguments.of("empty body", "", MALFORMED, "empty"),
                Arguments.of("body is an array", "[]", MALFORMED, "must be a JSON object"),
                Arguments.of("trailing data", schedule("\"cron\":\"@daily\"") + " x", MALFORMED, "not valid JSON"),
                Arguments.of("duplicate key", "{\"name\":\"a\",\"name\":\"b\"}", MALFORMED, "name"),
                Arguments.of("name is a number", "{\"name\":5,\"cron\":\"@daily\",\"job\":" + JOB + "}", MALFORMED,
                        "name must be a string, got an integer"),
                Arguments.of("paused is a string", schedule("\"cron\":\"@daily\",\"paused\":\"yes\""), MALFORMED,
                        "paused must be true or false"),
                Arguments.of("cron is a number", schedule("\"cron\":5"), MALFORMED, "cron must be a string"),
                Arguments.of("job is an array", "{\"name\":\"a\",\"cron\":\"@daily\",\"job\":[]}", MALFORMED,
                        "job must be an object"),
                Arguments.of("name missing", "{\"cron\":\"@daily\",\"job\":" + JOB + "}", INVALID, "name is required"),
                Arguments.of("name blank", "{\"name\":\" \",\"cron\":\"@daily\",\"job\":" + JOB + "}", INVALID,
                        "name is required"),
                Arguments.of("name too long", "{\"name\":\"" + "n".repeat(201) + "\",\"cron\":\"@daily\",\"job\":" + JOB
                        + "}", INVALID, "name must be at most 200 characters"),
                Arguments.of("name with NUL", "{\"name\":\"a\\u0000\",\"cron\":\"@daily\",\"job\":" + JOB + "}",
                        INVALID, "name must not contain the NUL"),
                Arguments.of("neither cron nor interval", schedule(""), INVALID, "cron or interval is required"),
                Arguments.of("both cron and interval", schedule("\"cron\":\"@daily\",\"interval\":\"PT1M\""), INVALID,
                        "either cron or interval"),
                Arguments.of("cron with 4 fields", schedule("\"cron\":\"* * * *\""), INVALID, "cron '* * * *' has 4"),
                Arguments.of("cron out of range", schedule("\"cron\":\"61 * * * *\""), INVALID, "cron '61 * * * *'"),
                Arguments.of("unknown macro", schedule("\"cron\":\"@sometimes\""), INVALID, "cron '@sometimes'"),
                Arguments.of("interval not ISO-8601", schedule("\"interval\":\"5 minutes\""), INVALID,
                        "interval '5 minutes' is not an ISO-8601 duration"),
                Arguments.of("interval under a second", schedule("\"interval\":\"PT0.5S\""), INVALID,
                        "interval must be at least 1 second"),
                Arguments.of("interval too long a text", schedule("\"interval\":\"PT" + "0".repeat(70) + "1S\""),
                        INVALID, "interval must be at most 64 characters"),
                Arguments.of("unknown timezone", schedule("\"cron\":\"@daily\",\"timezone\":\"Mars/Olympus\""), INVALID,
                        "timezone 'Mars/Olympus'"),
                Arguments.of("unknown misfire", schedule("\"cron\":\"@daily\",\"misfire\":\"SOMETIMES\""), INVALID,
                        "misfire 'SOMETIMES' is not a known value; valid values are FIRE_ONCE, SKIP"),
                Arguments.of("unknown overlap", schedule("\"cron\":\"@daily\",\"overlap\":\"queue\""), INVALID,
                        "overlap 'queue' is not a known value; valid values are ALLOW, SKIP"),
                Arguments.of("bad tenant", schedule("\"cron\":\"@daily\",\"tenant\":\"Not Valid\""), INVALID,
                        "tenant must match"),
                Arguments.of("neither job nor workflowId", "{\"name\":\"a\",\"cron\":\"@daily\"}", INVALID,
                        "exactly one of job and workflowId is required, got none"),
                Arguments.of("both job and workflowId", schedule("\"cron\":\"@daily\",\"workflowId\":"
                        + "\"3fa85f64-5717-4562-b3fc-2c963f66afa6\""), INVALID,
                        "exactly one of job and workflowId is required, got both"),
                Arguments.of("workflowId not a UUID", "{\"name\":\"a\",\"cron\":\"@daily\",\"workflowId\":"
                        + "\"3fa85f64\"}", INVALID, "workflowId must be a UUID such as"),
                Arguments.of("workflowId a number", "{\"name\":\"a\",\"cron\":\"@daily\",\"workflowId\":7}",
                        MALFORMED, "workflowId must be a string"),
                Arguments.of("workflowId of no workflow", "{\"name\":\"a\",\"cron\":\"@daily\",\"workflowId\":"
                        + "\"3fa85f64-5717-4562-b3fc-2c963f66afa6\"}", INVALID,
                        "workflowId 3fa85f64-5717-4562-b3fc-2c963f66afa6 names no workflow"),
                Arguments.of("job without jobType", withJob("{\"payload\":{\"steps\":[{\"action\":\"LOG\","
                        + "\"message\":\"x\"}]}}"), INVALID, "job.jobType is required"),
                Arguments.of("job with malformed jobType", withJob("{\"jobType\":\"BA TCH\",\"payload\":{\"steps\":[]}}"),
                        INVALID, "job.jobType is not valid: a job type must be a letter"),
                Arguments.of("job with unknown action", withJob("{\"jobType\":\"SIMULATION\",\"payload\":{\"steps\":"
                        + "[{\"action\":\"EXPLODE\"}]}}"), INVALID, "job.payload.steps[0].action 'EXPLODE'"),
                Arguments.of("job with a step over its bound", withJob("{\"jobType\":\"SIMULATION\",\"payload\":"
                        + "{\"steps\":[{\"action\":\"SLEEP\",\"durationMs\":60001}]}}"), INVALID,
                        "job.payload.steps[0].durationMs must be between 0 and 60000"),
                Arguments.of("job with a wrong type", withJob("{\"jobType\":\"SIMULATION\",\"payload\":{\"steps\":"
                        + "[{\"action\":\"SLEEP\",\"durationMs\":\"abc\"}]}}"), MALFORMED,
                        "job.payload.steps[0].durationMs must be an integer"),
                Arguments.of("job without steps", withJob("{\"jobType\":\"SIMULATION\",\"payload\":{\"steps\":[]}}"),
                        INVALID, "job.payload.steps must hold at least one step"),
                Arguments.of("job with maxRetryCount over the bound", withJob("{\"jobType\":\"SIMULATION\",\"payload\":"
                        + "{\"steps\":[{\"action\":\"LOG\",\"message\":\"x\"}]},\"maxRetryCount\":11}"), INVALID,
                        "job.maxRetryCount must be between 0 and 10"),
                Arguments.of("job with runAt", withJob("{\"jobType\":\"SIMULATION\",\"payload\":{\"steps\":[{\"action\""
                        + ":\"LOG\",\"message\":\"x\"}]},\"runAt\":\"2030-01-01T00:00:00Z\"}"), INVALID,
                        "job.runAt is not allowed in a schedule"),
                Arguments.of("job with a bad tenant", withJob("{\"jobType\":\"SIMULATION\",\"tenant\":\"A B\","
                        + "\"payload\":{\"steps\":[{\"action\":\"LOG\",\"message\":\"x\"}]}}"), INVALID, "job.tenant"),
                Arguments.of("job's tenant differs", "{\"name\":\"a\",\"cron\":\"@daily\",\"tenant\":\"one\","
                        + "\"job\":{\"jobType\":\"SIMULATION\",\"tenant\":\"two\",\"payload\":{\"steps\":[{\"action\":"
                        + "\"LOG\",\"message\":\"x\"}]}}}", INVALID, "job.tenant 'two' differs"));
    }

    @ParameterizedTest(name = "POST: {0}")
    @MethodSource("rules")
    void createRefusedWithTheFieldNamed(String rule, String body, String errorCode, String messagePart)
            throws Exception {
        assertRefusedChangingNothing(rule, () -> Database.count("schedules"), () -> Schedules.create(body), 400,
                errorCode, messagePart);
    }

    @ParameterizedTest(name = "PUT: {0}")
    @MethodSource("rules")
    void replaceRefusedWithTheFieldNamed(String rule, String body, String errorCode, String messagePart) {
        String id = Schedules.createOne();

        assertRefused(rule, Answers.putJson("/api/schedules/" + id, body), 400, errorCode, messagePart);
        assertThat(given().get("/api/schedules/" + id).jsonPath().getLong("version")).as("unchanged").isEqualTo(1);
    }

    @Test
    void unknownIdIs404OnEveryEndpoint() {
        String id = Schedules.unknownId();
        EVERY_ENDPOINT.refuse(id, 404, "API.SCHEDULE_NOT_FOUND", id);
    }

    @Test
    void badIdIs400OnEveryEndpoint() {
        EVERY_ENDPOINT.refuse("not-a-uuid", 400, "API.INVALID_PARAMETER", "path parameter id must be a UUID");
    }

    @ParameterizedTest(name = "{0}={1}")
    @MethodSource("dev.jobweaver.api.testing.ListParameters#badPagingOrTenant")
    void aBadListParameterIs400(String name, String value, String messagePart) {
        ListParameters.assertRefused("/api/schedules", name, value, messagePart);
    }

    @Test
    void bodyOverTheLimitIs413AndNotJsonIs415() {
        Answers.assertBodyOverTheLimitAndNotJsonRefused("/api/schedules", Schedules.VALID);
    }

    /** A schedule named "a" with {@code timing} (comma-free or a list of members) and a valid job. */
    private static String schedule(String timing) {
        return "{\"name\":\"a\"," + (timing.isEmpty() ? "" : timing + ",") + "\"job\":" + JOB + "}";
    }

    private static String withJob(String job) {
        return "{\"name\":\"a\",\"cron\":\"@daily\",\"job\":" + job + "}";
    }
}
