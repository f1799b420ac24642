package dev.jobweaver.api.testing;

import static io.restassured.RestAssured.given;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.event.WorkflowProgressEvent;
import dev.jobweaver.common.messaging.Topics;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import org.apache.kafka.clients.producer.ProducerRecord;

/** Workflow bodies and calls the integration tests share. */
public final class Workflows {

    /** A small valid node job. */
    public static final String JOB = """
            {"jobType":"SIMULATION","payload":{"steps":[{"action":"LOG","message":"node"}]},"maxRetryCount":1}""";

    /** A valid workflow: extract, then a and b in parallel, then load (fan-in). */
    public static final String VALID = """
            {"name":"etl","maxConcurrency":5,"nodes":[
              {"id":"extract","job":%1$s},
              {"id":"a","job":%1$s,"dependsOn":["extract"]},
              {"id":"b","job":%1$s,"dependsOn":["extract"]},
              {"id":"load","job":%1$s,"dependsOn":["a","b"]}]}""".formatted(JOB);

    private Workflows() {
    }

    /** POST /api/workflows with {@code body} as JSON. */
    public static Response create(String body) {
        return Answers.postJson("/api/workflows", body);
    }

    /** Creates {@code body}, asserts the 201, and returns the workflow as answered. */
    public static JsonPath createOne(String body) {
        return Answers.expect(create(body), 201, "a valid workflow");
    }

    /** Creates {@link #VALID} and returns its id. */
    public static String createOne() {
        return createOne(VALID).getString("id");
    }

    /** Starts a run of {@code workflowId} with {@code body}, asserts the 202, and returns the answer. */
    public static JsonPath start(String workflowId, String body) {
        return Answers.expect(Answers.postJson("/api/workflows/" + workflowId + "/runs", body), 202, "a run");
    }

    /** GET /api/workflow-runs/{runId}, asserting the 200. */
    public static JsonPath run(String runId) {
        return given().get("/api/workflow-runs/" + runId).then().statusCode(200).extract().jsonPath();
    }

    /** {@code event}'s record on workflow-progress, keyed by its runId as the scheduler writes it. */
    public static ProducerRecord<String, byte[]> progress(ObjectMapper mapper, WorkflowProgressEvent event) {
        return new ProducerRecord<>(Topics.WORKFLOW_PROGRESS, event.runId().toString(), Schedules.json(mapper, event));
    }
}
