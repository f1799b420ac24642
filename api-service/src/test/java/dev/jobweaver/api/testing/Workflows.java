package dev.jobweaver.api.testing;

import static io.restassured.RestAssured.given;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.event.WorkflowProgressEvent;
import dev.jobweaver.common.job.JobIds;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.workflow.NodeStatus;
import dev.jobweaver.common.workflow.WorkflowRunStatus;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
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

    /** The nodes of {@link #VALID}, in order. */
    public static final List<String> NODES = List.of("extract", "a", "b", "load");

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

    /**
     * The progress event {@code version} of run {@code runId} of a {@link #VALID} workflow: {@code status}, each node
     * {@code changed} names in its status with its job, the others WAITING without one, {@code ready} the nodes to
     * make jobs of; ended now when {@code status} is terminal.
     */
    public static WorkflowProgressEvent progressEvent(UUID runId, String workflowId, long version,
                                                      WorkflowRunStatus status, Map<String, NodeStatus> changed,
                                                      List<WorkflowProgressEvent.ReadyNode> ready) {
        List<WorkflowProgressEvent.Node> nodes = new ArrayList<>();
        for (String node : NODES) {
            NodeStatus nodeStatus = changed.getOrDefault(node, NodeStatus.WAITING);
            nodes.add(new WorkflowProgressEvent.Node(node, nodeStatus, nodeStatus == NodeStatus.WAITING ? null
                    : JobIds.forNode(runId, node)));
        }
        Instant now = Instant.now();
        return new WorkflowProgressEvent(runId, UUID.fromString(workflowId), version, status, nodes, ready, now,
                status.terminal() ? now : null);
    }

    /** Node {@code node} of run {@code runId} ready, with the results of its dependencies. */
    public static WorkflowProgressEvent.ReadyNode ready(UUID runId, String node, Map<String, JsonNode> results) {
        return new WorkflowProgressEvent.ReadyNode(node, JobIds.forNode(runId, node), results);
    }

    /** {@code event}'s record on workflow-progress, keyed by its runId as the scheduler writes it. */
    public static ProducerRecord<String, byte[]> progress(ObjectMapper mapper, WorkflowProgressEvent event) {
        return new ProducerRecord<>(Topics.WORKFLOW_PROGRESS, event.runId().toString(), Schedules.json(mapper, event));
    }
}
