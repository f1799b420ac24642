package dev.jobweaver.api.deadletter;

import static dev.jobweaver.api.testing.Answers.assertRefused;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.DeadLetters;
import dev.jobweaver.api.testing.Endpoints;
import dev.jobweaver.api.testing.KafkaProbe;
import dev.jobweaver.api.testing.ListParameters;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.time.Instant;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every bad input of the dead-letter endpoints is a 4xx ErrorResponse naming the field, and changes nothing: the dead
 * letter stays as it was and no command reaches job-commands.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class DeadLetterValidationTest {

    private static final String PARAMETER = "API.INVALID_PARAMETER";
    private static final String MALFORMED = "API.MALFORMED_JSON";
    private static final String INVALID = "API.INVALID_DEAD_LETTER_REQUEST";

    static Stream<Arguments> queries() {
        return Stream.concat(ListParameters.badPagingOrTenant(), Stream.of(
                Arguments.of("state", "ALL", "query parameter state 'ALL'"),
                Arguments.of("state", "open", "query parameter state"),
                Arguments.of("state", "OPEN,", "query parameter state"),
                Arguments.of("jobType", "BA TCH", "query parameter jobType must be a job type's name, [A-Za-z][A-Za-z0-9_.-]{0,99}, got 'BA TCH'"),
                Arguments.of("page", "first", "query parameter page")));
    }

    @ParameterizedTest(name = "{0}={1}")
    @MethodSource("queries")
    void aBadListParameterIs400NamingIt(String name, String value, String messagePart) {
        ListParameters.assertRefused("/api/dead-letters", name, value, messagePart);
    }

    @Test
    void aBadJobIdIs400OnEveryEndpoint() {
        Endpoints every = new Endpoints().get("/api/dead-letters/{id}")
                .with("requeue without a body", id -> DeadLetters.requeue(id, null))
                .with("requeue", id -> DeadLetters.requeue(id, "{}"))
                .with("discard", id -> DeadLetters.discard(id, "{\"reason\":\"x\"}"));
        for (String bad : new String[] {"not-a-uuid", "1-2-3-4-5"}) {
            every.refuse(bad, 400, PARAMETER, "path parameter jobId must be a UUID");
        }
    }

    /** Every bad body of the requeue, discard and bulk requeue endpoints, each case with the call that sends it. */
    static Stream<Arguments> badBodies() {
        return Stream.of(sentBy("requeue", DeadLetters::requeue, requeueBodies()),
                sentBy("discard", DeadLetters::discard, discardBodies()),
                sentBy("bulk requeue", (id, body) -> DeadLetters.requeueAll(body), bulkBodies())).flatMap(c -> c);
    }

    /** {@code cases} (rule, body, errorCode, messagePart), each named after {@code endpoint} and given {@code call}. */
    private static Stream<Arguments> sentBy(String endpoint, BiFunction<String, String, Response> call,
                                            Stream<Arguments> cases) {
        return cases.map(c -> Arguments.of(endpoint + ": " + c.get()[0], call, c.get()[1], c.get()[2], c.get()[3]));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badBodies")
    void aBadBodyIs400NamingTheFieldAndChangesNothing(String rule, BiFunction<String, String, Response> call,
                                                      String body, String errorCode, String messagePart)
            throws Exception {
        String jobId = DeadLetters.storeOpen(Instant.now());
        unchanged(jobId, id -> call.apply(id, body), rule, errorCode, messagePart);
    }

    private static Stream<Arguments> requeueBodies() {
        String log = "{\"action\":\"LOG\",\"message\":\"x\"}";
        return Stream.of(
                Arguments.of("not JSON", "{\"payload\":", MALFORMED, "request body is not valid JSON"),
                Arguments.of("trailing data", "{} {}", MALFORMED, "request body is not valid JSON"),
                Arguments.of("not an object", "[1]", MALFORMED, "request body must be a JSON object"),
                Arguments.of("payload a string", "{\"payload\":\"steps\"}", MALFORMED,
                        "payload must be an object, got a string"),
                Arguments.of("maxRetryCount a string", "{\"maxRetryCount\":\"3\"}", MALFORMED,
                        "maxRetryCount must be an integer, got a string"),
                Arguments.of("maxRetryCount a decimal", "{\"maxRetryCount\":1.5}", MALFORMED,
                        "maxRetryCount must be an integer"),
                Arguments.of("maxRetryCount 11", "{\"maxRetryCount\":11}", INVALID,
                        "maxRetryCount must be between 0 and 10, got 11"),
                Arguments.of("maxRetryCount -1", "{\"maxRetryCount\":-1}", INVALID,
                        "maxRetryCount must be between 0 and 10, got -1"),
                Arguments.of("empty steps", "{\"payload\":{\"steps\":[]}}", INVALID,
                        "payload.steps must hold at least one step"),
                Arguments.of("missing steps", "{\"payload\":{}}", INVALID, "payload.steps is required"),
                Arguments.of("unknown action", "{\"payload\":{\"steps\":[{\"action\":\"FLY\"}]}}", INVALID,
                        "payload.steps[0].action 'FLY' is not a known action"),
                Arguments.of("durationMs over the bound", "{\"payload\":{\"steps\":[" + log
                        + ",{\"action\":\"SLEEP\",\"durationMs\":60001}]}}", INVALID,
                        "payload.steps[1].durationMs must be between 0 and 60000"),
                Arguments.of("durationMs a string", "{\"payload\":{\"steps\":[{\"action\":\"SLEEP\",\"durationMs\":"
                        + "\"10\"}]}}", MALFORMED, "payload.steps[0].durationMs must be an integer"),
                Arguments.of("duplicate key", "{\"maxRetryCount\":1,\"maxRetryCount\":2}", MALFORMED,
                        "maxRetryCount"));
    }

    @Test
    void aPayloadIsCheckedAgainstTheJobsOwnType() throws Exception {
        String jobId = DeadLetters.storeOpen(DeadLetters.newTenant(), "HTTP", Instant.now());
        // a SIMULATION payload is no HTTP job's
        unchanged(jobId, id -> DeadLetters.requeue(id, "{\"payload\":{\"steps\":[{\"action\":\"LOG\","
                + "\"message\":\"x\"}]}}"), "steps for an HTTP job", INVALID, "payload.");
        unchanged(jobId, id -> DeadLetters.requeue(id, "{\"payload\":{\"method\":\"GET\",\"url\":\"ftp://x\"}}"),
                "HTTP url not http", INVALID, "payload.url");
    }

    private static Stream<Arguments> discardBodies() {
        return Stream.of(
                Arguments.of("no body", "", MALFORMED, "request body is empty"),
                Arguments.of("not JSON", "{\"reason\":", MALFORMED, "request body is not valid JSON"),
                Arguments.of("not an object", "\"gone\"", MALFORMED, "request body must be a JSON object"),
                Arguments.of("reason missing", "{}", INVALID, "reason is required"),
                Arguments.of("reason null", "{\"reason\":null}", INVALID, "reason is required"),
                Arguments.of("reason empty", "{\"reason\":\"\"}", INVALID, "reason must not be blank"),
                Arguments.of("reason blank", "{\"reason\":\"   \"}", INVALID, "reason must not be blank"),
                Arguments.of("reason too long", "{\"reason\":\"" + "r".repeat(1001) + "\"}", INVALID,
                        "reason must be at most 1000 characters, got 1001"),
                Arguments.of("reason a number", "{\"reason\":5}", MALFORMED,
                        "reason must be a string, got an integer"));
    }

    @Test
    void aDiscardThatIsNotJsonIs415() throws Exception {
        String jobId = DeadLetters.storeOpen(Instant.now());
        Map<String, String> before = DeadLetters.row(jobId);

        Response response = given().contentType(ContentType.TEXT).body("gone")
                .post("/api/dead-letters/" + jobId + "/discard");

        assertRefused("text/plain", response, 415, "API.UNSUPPORTED_MEDIA_TYPE", "Content-Type");
        assertThat(DeadLetters.row(jobId)).isEqualTo(before);
    }

    private static Stream<Arguments> bulkBodies() {
        return Stream.of(
                Arguments.of("not JSON", "{\"limit\":", MALFORMED, "request body is not valid JSON"),
                Arguments.of("not an object", "[]", MALFORMED, "request body must be a JSON object"),
                Arguments.of("limit 0", "{\"limit\":0}", INVALID, "limit must be between 1 and 1000, got 0"),
                Arguments.of("limit over the bound", "{\"limit\":1001}", INVALID,
                        "limit must be between 1 and 1000, got 1001"),
                Arguments.of("limit a string", "{\"limit\":\"ten\"}", MALFORMED, "limit must be an integer"),
                Arguments.of("malformed jobType", "{\"jobType\":\"BA TCH\"}", INVALID, "jobType must be a job type's name"),
                Arguments.of("jobType a number", "{\"jobType\":1}", MALFORMED, "jobType must be a string"),
                Arguments.of("bad tenant", "{\"tenant\":\"Not_A_Tenant\"}", INVALID, "tenant must match"),
                Arguments.of("failedAfter not an instant", "{\"failedAfter\":\"yesterday\"}", INVALID,
                        "failedAfter must be an ISO-8601 instant"),
                Arguments.of("failedBefore not an instant", "{\"failedBefore\":\"2026-13-01\"}", INVALID,
                        "failedBefore must be an ISO-8601 instant"),
                Arguments.of("an empty window", "{\"failedAfter\":\"2026-01-02T00:00:00Z\","
                        + "\"failedBefore\":\"2026-01-01T00:00:00Z\"}", INVALID,
                        "failedAfter must be before failedBefore"));
    }

    /** Asserts {@code call} on {@code jobId} is refused and that neither its row nor job-commands changed. */
    private static void unchanged(String jobId, Function<String, Response> call, String rule, String errorCode,
                                  String messagePart) throws Exception {
        Map<String, String> before = DeadLetters.row(jobId);
        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.JOB_COMMANDS)) {
            assertRefused(rule, call.apply(jobId), 400, errorCode, messagePart);
            assertThat(probe.readToEnd().stream().filter(r -> jobId.equals(r.key())))
                    .as(rule + ": no command").isEmpty();
        }
        assertThat(DeadLetters.row(jobId)).as(rule + ": the dead letter").isEqualTo(before);
    }
}
