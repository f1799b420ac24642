package dev.jobweaver.api.workflow;

import static dev.jobweaver.api.testing.Answers.assertRefused;
import static dev.jobweaver.api.testing.Answers.assertRefusedChangingNothing;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.Answers;
import dev.jobweaver.api.testing.Database;
import dev.jobweaver.api.testing.Endpoints;
import dev.jobweaver.api.testing.ListParameters;
import dev.jobweaver.api.testing.Workflows;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The validation matrix of POST and PUT /api/workflows and the bad paths, parameters and bodies of every workflow
 * endpoint: one case per rule, each a 4xx ErrorResponse naming the field (and the node), nothing stored.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class WorkflowResourceValidationTest {

    private static final String MALFORMED = "API.MALFORMED_JSON";
    private static final String INVALID = "API.INVALID_WORKFLOW_REQUEST";
    private static final String JOB = Workflows.JOB;

    /** GET, PUT, DELETE, start and list the runs of one workflow. */
    private static final Endpoints WORKFLOW_ENDPOINTS = new Endpoints().get("/api/workflows/{id}")
            .putJson("/api/workflows/{id}", Workflows.VALID).delete("/api/workflows/{id}")
            .postJson("/api/workflows/{id}/runs", "{}").get("/api/workflows/{id}/runs");

    /** GET, cancel and retry one run. */
    private static final Endpoints RUN_ENDPOINTS = new Endpoints().get("/api/workflow-runs/{id}")
            .post("/api/workflow-runs/{id}/cancel").post("/api/workflow-runs/{id}/retry");

    static Stream<Arguments> rules() {
        return Stream.of(
                Arguments.of("malformed JSON", "{\"name\":\"a\",", MALFORMED, "not valid JSON"),
                Arguments.of("empty body", "", MALFORMED, "empty"),
                Arguments.of("body is an array", "[]", MALFORMED, "must be a JSON object"),
                Arguments.of("duplicate key", "{\"name\":\"a\",\"name\":\"b\"}", MALFORMED, "name"),
                Arguments.of("name is a number", "{\"name\":5,\"nodes\":[" + node("x", "") + "]}", MALFORMED,
                        "name must be a string, got an integer"),
                Arguments.of("nodes is an object", "{\"name\":\"a\",\"nodes\":{}}", MALFORMED,
                        "nodes must be an array"),
                Arguments.of("a node is a string", "{\"name\":\"a\",\"nodes\":[\"x\"]}", MALFORMED,
                        "nodes[0] must be an object"),
                Arguments.of("dependsOn is a string", workflow(node("x", "") + ",{\"id\":\"y\",\"job\":" + JOB
                        + ",\"dependsOn\":\"x\"}"), MALFORMED, "nodes[1].dependsOn must be an array"),
                Arguments.of("maxConcurrency is a string", "{\"name\":\"a\",\"maxConcurrency\":\"5\",\"nodes\":["
                        + node("x", "") + "]}", MALFORMED, "maxConcurrency must be an integer"),
                Arguments.of("name missing", "{\"nodes\":[" + node("x", "") + "]}", INVALID, "name is required"),
                Arguments.of("name too long", "{\"name\":\"" + "n".repeat(201) + "\",\"nodes\":[" + node("x", "")
                        + "]}", INVALID, "name must be at most 200 characters"),
                Arguments.of("no nodes", "{\"name\":\"a\",\"nodes\":[]}", INVALID, "at least one node"),
                Arguments.of("nodes missing", "{\"name\":\"a\"}", INVALID, "at least one node"),
                Arguments.of("101 nodes", workflow(IntStream.range(0, 101).mapToObj(i -> node("n" + i, ""))
                        .collect(Collectors.joining(","))), INVALID, "nodes: 101 nodes, at most 100 are allowed"),
                Arguments.of("a cycle", workflow(node("a", "c") + "," + node("b", "a") + "," + node("c", "b")),
                        INVALID, "nodes: cycle "),
                Arguments.of("a node depends on itself", workflow(node("a", "a")), INVALID,
                        "nodes[0].dependsOn[0]: node 'a' depends on itself (a cycle)"),
                Arguments.of("an unknown dependency", workflow(node("a", "") + "," + node("b", "nope")), INVALID,
                        "nodes[1].dependsOn[0]: unknown dependency 'nope' of node 'b'"),
                Arguments.of("a duplicate id", workflow(node("a", "") + "," + node("a", "")), INVALID,
                        "nodes[1].id: duplicate id 'a' (also nodes[0])"),
                Arguments.of("an id missing", workflow("{\"job\":" + JOB + "}"), INVALID, "nodes[0].id: required"),
                Arguments.of("a bad id", workflow(node("no spaces", "")), INVALID, "nodes[0].id: 'no spaces'"),
                Arguments.of("a node without its job", workflow("{\"id\":\"a\"}"), INVALID,
                        "nodes[0].job is required"),
                Arguments.of("a node's job with an unknown action", workflow(node("a", "") + ",{\"id\":\"b\",\"job\":"
                        + "{\"jobType\":\"SIMULATION\",\"payload\":{\"steps\":[{\"action\":\"EXPLODE\"}]}}}"), INVALID,
                        "nodes[1].job.payload.steps[0].action 'EXPLODE'"),
                Arguments.of("a node's job over a bound", workflow("{\"id\":\"a\",\"job\":{\"jobType\":\"SIMULATION\","
                        + "\"payload\":{\"steps\":[{\"action\":\"SLEEP\",\"durationMs\":60001}]}}}"), INVALID,
                        "nodes[0].job.payload.steps[0].durationMs must be between 0 and 60000"),
                Arguments.of("a node's job without jobType", workflow("{\"id\":\"a\",\"job\":{\"payload\":{\"steps\":"
                        + "[{\"action\":\"LOG\",\"message\":\"x\"}]}}}"), INVALID, "nodes[0].job.jobType is required"),
                Arguments.of("a node's job with a wrong type", workflow("{\"id\":\"a\",\"job\":{\"jobType\":"
                        + "\"SIMULATION\",\"payload\":{\"steps\":[{\"action\":\"SLEEP\",\"durationMs\":\"abc\"}]}}}"),
                        MALFORMED, "nodes[0].job.payload.steps[0].durationMs must be an integer"),
                Arguments.of("a node's job with runAt", workflow("{\"id\":\"a\",\"job\":{\"jobType\":\"SIMULATION\","
                        + "\"runAt\":\"2030-01-01T00:00:00Z\",\"payload\":{\"steps\":[{\"action\":\"LOG\",\"message\":"
                        + "\"x\"}]}}}"), INVALID, "nodes[0].job.runAt is not allowed in a workflow"),
                Arguments.of("a node's job of another tenant", "{\"name\":\"a\",\"tenant\":\"one\",\"nodes\":[{\"id\":"
                        + "\"a\",\"job\":{\"jobType\":\"SIMULATION\",\"tenant\":\"two\",\"payload\":{\"steps\":[{"
                        + "\"action\":\"LOG\",\"message\":\"x\"}]}}}]}", INVALID,
                        "nodes[0].job.tenant 'two' differs from the workflow's tenant 'one'"),
                Arguments.of("maxConcurrency 0", "{\"name\":\"a\",\"maxConcurrency\":0,\"nodes\":[" + node("x", "")
                        + "]}", INVALID, "maxConcurrency must be between 1 and 10000, got 0"),
                Arguments.of("maxConcurrency 10001", "{\"name\":\"a\",\"maxConcurrency\":10001,\"nodes\":["
                        + node("x", "") + "]}", INVALID, "maxConcurrency must be between 1 and 10000, got 10001"),
                Arguments.of("unknown onFailure", "{\"name\":\"a\",\"onFailure\":\"RETRY\",\"nodes\":[" + node("x", "")
                        + "]}", INVALID, "onFailure 'RETRY' is not a known value; valid values are FAIL_FAST, CONTINUE"),
                Arguments.of("bad tenant", "{\"name\":\"a\",\"tenant\":\"Not Valid\",\"nodes\":[" + node("x", "")
                        + "]}", INVALID, "tenant must match"));
    }

    @ParameterizedTest(name = "POST: {0}")
    @MethodSource("rules")
    void createRefusedWithTheFieldNamed(String rule, String body, String errorCode, String messagePart)
            throws Exception {
        assertRefusedChangingNothing(rule, () -> Database.count("workflows"), () -> Workflows.create(body), 400,
                errorCode, messagePart);
    }

    @ParameterizedTest(name = "PUT: {0}")
    @MethodSource("rules")
    void replaceRefusedWithTheFieldNamed(String rule, String body, String errorCode, String messagePart) {
        String id = Workflows.createOne();

        assertRefused(rule, Answers.putJson("/api/workflows/" + id, body), 400, errorCode, messagePart);
        assertThat(given().get("/api/workflows/" + id).jsonPath().getInt("latestVersion")).as("unchanged")
                .isEqualTo(1);
    }

    @Test
    void unknownIdsAre404OnEveryEndpoint() {
        String id = UUID.randomUUID().toString();
        WORKFLOW_ENDPOINTS.refuse(id, 404, "API.WORKFLOW_NOT_FOUND", id);
        RUN_ENDPOINTS.refuse(id, 404, "API.WORKFLOW_RUN_NOT_FOUND", id);
        String existing = Workflows.createOne();
        assertRefused("unknown version", given().queryParam("version", 2).get("/api/workflows/" + existing), 404,
                "API.WORKFLOW_NOT_FOUND", "version 2");
    }

    @Test
    void aDeletedWorkflowIsGoneAndStartsNoRun() {
        String id = Workflows.createOne();
        given().delete("/api/workflows/" + id).then().statusCode(204);

        new Endpoints().get("/api/workflows/{id}").postJson("/api/workflows/{id}/runs", "{}")
                .delete("/api/workflows/{id}").refuse(id, 404, "API.WORKFLOW_NOT_FOUND", id);
    }

    @Test
    void badIdsAre400OnEveryEndpoint() {
        WORKFLOW_ENDPOINTS.refuse("not-a-uuid", 400, "API.INVALID_PARAMETER", "path parameter id must be a UUID");
        RUN_ENDPOINTS.refuse("not-a-uuid", 400, "API.INVALID_PARAMETER", "path parameter runId must be a UUID");
    }

    @ParameterizedTest(name = "{0}={1}")
    @MethodSource("dev.jobweaver.api.testing.ListParameters#badPagingOrTenant")
    void aBadListParameterIs400(String name, String value, String messagePart) {
        ListParameters.assertRefused("/api/workflows", name, value, messagePart);
    }

    @ParameterizedTest(name = "{0}={1}")
    @MethodSource("dev.jobweaver.api.testing.ListParameters#badPaging")
    void aBadRunsListParameterIs400(String name, String value, String messagePart) {
        ListParameters.assertRefused("/api/workflows/" + Workflows.createOne() + "/runs", name, value, messagePart);
    }

    @Test
    void badParametersAre400() {
        String id = Workflows.createOne();
        assertRefused("runs page", given().queryParam("page", -1).get("/api/workflows/" + id + "/runs"), 400,
                "API.INVALID_PARAMETER", "query parameter page");
        assertRefused("version 0", given().queryParam("version", 0).get("/api/workflows/" + id), 400,
                "API.INVALID_PARAMETER", "query parameter version must be an integer");
        assertRefused("version x", given().queryParam("version", "x").get("/api/workflows/" + id), 400,
                "API.INVALID_PARAMETER", "query parameter version");
    }

    @Test
    void badRunBodiesAre400AndStartNothing() throws Exception {
        String id = Workflows.createOne();
        String runs = "/api/workflows/" + id + "/runs";
        long before = Database.count("workflow_runs");
        assertRefused("bad JSON", Answers.postJson(runs, "{\"input\":"), 400, "API.MALFORMED_JSON", "not valid JSON");
        assertRefused("an array", Answers.postJson(runs, "[1]"), 400, "API.MALFORMED_JSON", "must be a JSON object");
        String big = "{\"input\":{\"text\":\"" + "x".repeat(20_000) + "\"}}";
        assertRefused("input too large", Answers.postJson(runs, big), 400, INVALID,
                "input is 20011 bytes of JSON, at most 16384");
        assertThat(Database.count("workflow_runs")).as("no run stored").isEqualTo(before);
    }

    @Test
    void bodyOverTheLimitIs413AndNotJsonIs415() {
        Answers.assertBodyOverTheLimitAndNotJsonRefused("/api/workflows", Workflows.VALID);
    }

    /** A node {@code id} with a valid job, depending on {@code dependsOn} (one id, or none when empty). */
    private static String node(String id, String dependsOn) {
        return "{\"id\":\"" + id + "\",\"job\":" + JOB + (dependsOn.isEmpty() ? "" : ",\"dependsOn\":[\"" + dependsOn
                + "\"]") + "}";
    }

    private static String workflow(String nodes) {
        return "{\"name\":\"a\",\"nodes\":[" + nodes + "]}";
    }
}
