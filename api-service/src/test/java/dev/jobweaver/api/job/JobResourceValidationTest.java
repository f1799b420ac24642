package dev.jobweaver.api.job;

import dev.jobweaver.testing.JobWeaverTest;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.Jobs;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The validation matrix of POST /api/jobs: one case per rule, each a 4xx ErrorResponse naming the field. */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class JobResourceValidationTest {

    private static final String MALFORMED = "API.MALFORMED_JSON";
    private static final String INVALID = "API.INVALID_JOB_REQUEST";

    static Stream<Arguments> rules() {
        return Stream.of(
                // body is not (usable) JSON
                Arguments.of("malformed JSON", "{\"jobType\":\"SIMULATION\",", MALFORMED, "not valid JSON"),
                Arguments.of("empty body", "", MALFORMED, "empty"),
                Arguments.of("body is an array", "[]", MALFORMED, "must be a JSON object"),
                Arguments.of("trailing garbage", job(steps("{\"action\":\"LOG\",\"message\":\"x\"}")) + " x",
                        MALFORMED, "not valid JSON"),
                Arguments.of("duplicate key", "{\"jobType\":\"SIMULATION\",\"jobType\":\"SIMULATION\"}", MALFORMED,
                        "jobType"),
                // wrong types: the message names the field and the expected type
                Arguments.of("durationMs is a string", job(steps("{\"action\":\"SLEEP\",\"durationMs\":\"abc\"}")),
                        MALFORMED, "payload.steps[0].durationMs must be an integer"),
                Arguments.of("durationMs is a decimal", job(steps("{\"action\":\"SLEEP\",\"durationMs\":1.5}")),
                        MALFORMED, "payload.steps[0].durationMs must be an integer"),
                Arguments.of("iterations out of long range",
                        job(steps("{\"action\":\"COMPUTE\",\"iterations\":123456789012345678901234567890}")),
                        MALFORMED, "payload.steps[0].iterations"),
                Arguments.of("message is a number", job(steps("{\"action\":\"LOG\",\"message\":42}")),
                        MALFORMED, "payload.steps[0].message must be a string"),
                Arguments.of("steps is an object", "{\"jobType\":\"SIMULATION\",\"payload\":{\"steps\":{}}}",
                        MALFORMED, "payload.steps must be an array"),
                Arguments.of("payload is a string", "{\"jobType\":\"SIMULATION\",\"payload\":\"steps\"}",
                        MALFORMED, "payload must be an object"),
                Arguments.of("maxRetryCount is a string",
                        "{\"jobType\":\"SIMULATION\",\"payload\":" + steps("{\"action\":\"LOG\",\"message\":\"x\"}")
                                + ",\"maxRetryCount\":\"3\"}", MALFORMED, "maxRetryCount must be an integer"),
                // actions
                Arguments.of("unknown action", job(steps("{\"action\":\"LOG\",\"message\":\"x\"}",
                        "{\"action\":\"EXPLODE\"}")), INVALID, "payload.steps[1].action 'EXPLODE' is not a known action;"
                        + " valid actions are SLEEP, LOG, COMPUTE, HTTP_CALL, FAIL"),
                Arguments.of("missing action", job(steps("{\"action\":\"LOG\",\"message\":\"x\"}",
                        "{\"durationMs\":5}")), INVALID, "payload.steps[1].action is required"),
                Arguments.of("null step", job(steps("null")), INVALID, "payload.steps[0]"),
                // job type
                Arguments.of("malformed jobType", "{\"jobType\":\"BA TCH\",\"payload\":"
                        + steps("{\"action\":\"LOG\",\"message\":\"x\"}") + "}", INVALID, "jobType is not valid: a job type"
                        + " must be a letter then at most 99 letters, digits, '_', '.' or '-' ([A-Za-z][A-Za-z0-9_.-]{0,99}),"
                        + " got 'BA TCH'"),
                Arguments.of("malformed queue", "{\"jobType\":\"SIMULATION\",\"queue\":\"Images\",\"payload\":"
                        + steps("{\"action\":\"LOG\",\"message\":\"x\"}") + "}", INVALID,
                        "queue must match [a-z0-9][a-z0-9-]{0,62}, got 'Images'"),
                Arguments.of("missing jobType", "{\"payload\":" + steps("{\"action\":\"LOG\",\"message\":\"x\"}")
                        + "}", INVALID, "jobType is required"),
                // step list
                Arguments.of("missing payload", "{\"jobType\":\"SIMULATION\"}", INVALID, "payload is required"),
                Arguments.of("missing steps", "{\"jobType\":\"SIMULATION\",\"payload\":{}}", INVALID,
                        "payload.steps is required"),
                Arguments.of("empty steps", job("{\"steps\":[]}"), INVALID, "payload.steps must hold at least one step"),
                Arguments.of("too many steps", job(steps(Stream.generate(() -> "{\"action\":\"LOG\",\"message\":\"x\"}")
                        .limit(101).toArray(String[]::new))), INVALID, "payload.steps must hold at most 100 steps"),
                // numbers
                Arguments.of("missing durationMs", job(steps("{\"action\":\"SLEEP\"}")), INVALID,
                        "payload.steps[0].durationMs is required"),
                Arguments.of("negative durationMs", job(steps("{\"action\":\"SLEEP\",\"durationMs\":-1}")), INVALID,
                        "payload.steps[0].durationMs must be between 0 and 60000"),
                Arguments.of("durationMs over the bound", job(steps("{\"action\":\"LOG\",\"message\":\"x\"}",
                        "{\"action\":\"LOG\",\"message\":\"y\"}", "{\"action\":\"SLEEP\",\"durationMs\":60001}")),
                        INVALID, "payload.steps[2].durationMs must be between 0 and 60000"),
                Arguments.of("missing latencyMs", job(steps("{\"action\":\"HTTP_CALL\",\"url\":\"http://a.example\"}")),
                        INVALID, "payload.steps[0].latencyMs is required"),
                Arguments.of("latencyMs over the bound",
                        job(steps("{\"action\":\"HTTP_CALL\",\"url\":\"http://a.example\",\"latencyMs\":60001}")),
                        INVALID, "payload.steps[0].latencyMs must be between 0 and 60000"),
                Arguments.of("negative iterations", job(steps("{\"action\":\"COMPUTE\",\"iterations\":-5}")), INVALID,
                        "payload.steps[0].iterations must be between 0 and 100000000"),
                Arguments.of("iterations over the bound", job(steps("{\"action\":\"COMPUTE\",\"iterations\":100000001}")),
                        INVALID, "payload.steps[0].iterations must be between 0 and 100000000"),
                // texts
                Arguments.of("missing LOG message", job(steps("{\"action\":\"LOG\"}")), INVALID,
                        "payload.steps[0].message is required"),
                Arguments.of("missing FAIL message", job(steps("{\"action\":\"FAIL\"}")), INVALID,
                        "payload.steps[0].message is required"),
                Arguments.of("FAIL times below 1", job(steps("{\"action\":\"FAIL\",\"message\":\"x\",\"times\":0}")),
                        INVALID, "payload.steps[0].times must be between 1 and 11"),
                Arguments.of("FAIL times as text", job(steps("{\"action\":\"FAIL\",\"message\":\"x\",\"times\":\"once\"}")),
                        MALFORMED, "payload.steps[0].times"),
                Arguments.of("message too long", job(steps("{\"action\":\"LOG\",\"message\":\"" + "m".repeat(4097) + "\"}")),
                        INVALID, "payload.steps[0].message must be at most 4096 characters"),
                Arguments.of("url not http", job(steps("{\"action\":\"HTTP_CALL\",\"url\":\"ftp://x\",\"latencyMs\":1}")),
                        INVALID, "payload.steps[0].url must be an absolute http or https URL"),
                Arguments.of("missing url", job(steps("{\"action\":\"HTTP_CALL\",\"latencyMs\":1}")),
                        INVALID, "payload.steps[0].url is required"),
                // retries
                Arguments.of("maxRetryCount over the bound", "{\"jobType\":\"SIMULATION\",\"payload\":"
                        + steps("{\"action\":\"LOG\",\"message\":\"x\"}") + ",\"maxRetryCount\":11}", INVALID,
                        "maxRetryCount must be between 0 and 10"),
                Arguments.of("negative maxRetryCount", "{\"jobType\":\"SIMULATION\",\"payload\":"
                        + steps("{\"action\":\"LOG\",\"message\":\"x\"}") + ",\"maxRetryCount\":-1}", INVALID,
                        "maxRetryCount must be between 0 and 10"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rules")
    void refusedWithTheFieldNamed(String rule, String body, String errorCode, String messagePart) {
        Response response = Jobs.submit(body);

        assertThat(response.statusCode()).as(rule + ": " + response.asString()).isEqualTo(400);
        assertThat(response.contentType()).startsWith("application/json");
        assertThat(response.jsonPath().getString("errorCode")).as(rule).isEqualTo(errorCode);
        assertThat(response.jsonPath().getInt("status")).isEqualTo(400);
        assertThat(response.jsonPath().getString("timestamp")).isNotBlank();
        assertThat(response.jsonPath().getString("message")).as(rule).contains(messagePart)
                .doesNotContain("at dev.jobweaver", "Exception:");
    }

    private static String job(String payload) {
        return "{\"jobType\":\"SIMULATION\",\"payload\":" + payload + ",\"maxRetryCount\":1}";
    }

    private static String steps(String... steps) {
        return "{\"steps\":[" + String.join(",", steps) + "]}";
    }
}
