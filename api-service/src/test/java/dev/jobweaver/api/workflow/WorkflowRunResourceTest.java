package dev.jobweaver.api.workflow;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.testing.Database;
import dev.jobweaver.api.testing.KafkaProbe;
import dev.jobweaver.api.testing.Workflows;
import dev.jobweaver.common.event.WorkflowRunEvent;
import dev.jobweaver.common.messaging.Headers;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.workflow.NodeStatus;
import dev.jobweaver.common.workflow.OnFailure;
import dev.jobweaver.common.workflow.WorkflowNode;
import dev.jobweaver.common.workflow.WorkflowRunStatus;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * A run starts with the workflow's latest version, is one trace (its own span, a child of the client's traceparent),
 * puts its START with its version's graph on {@code workflow-runs}, keeps its version after a PUT, and is cancelled
 * through the same outbox; a run that has ended cannot be. A run that ended FAILED or CANCELLED is retried: its RETRY,
 * naming the end it retries, is on {@code workflow-runs} before the 202; any other run's retry is a 409.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class WorkflowRunResourceTest {

    private static final String CLIENT_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String CLIENT_SPAN = "00f067aa0ba902b7";

    @Inject
    ObjectMapper mapper;

    @Test
    void aRunPutsItsStartWithItsGraphAndTraceOnTheTopic() throws Exception {
        String workflowId = Workflows.createOne();
        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.WORKFLOW_RUNS)) {
            Response response = given().contentType(ContentType.JSON)
                    .header(Headers.TRACEPARENT, "00-" + CLIENT_TRACE + "-" + CLIENT_SPAN + "-01")
                    .body("{\"input\":{\"date\":\"2026-11-26\",\"rows\":[1,2]}}")
                    .post("/api/workflows/" + workflowId + "/runs");
            assertThat(response.statusCode()).as(response.asString()).isEqualTo(202);
            String runId = response.jsonPath().getString("runId");
            assertThat(response.header("Location")).isEqualTo("/api/workflow-runs/" + runId);
            assertThat(response.jsonPath().getString("traceId")).as("the client's trace").isEqualTo(CLIENT_TRACE);
            assertThat(response.jsonPath().getInt("version")).isEqualTo(1);
            assertThat(response.jsonPath().getString("status")).isEqualTo("PENDING");

            ConsumerRecord<String, byte[]> record = probe.pollUntil(seen -> !probe.withKey(runId).isEmpty(),
                    Duration.ofSeconds(30)).stream().filter(r -> runId.equals(r.key())).findFirst().orElseThrow();
            WorkflowRunEvent start = mapper.readValue(record.value(), WorkflowRunEvent.class);
            assertThat(start.kind()).isEqualTo(WorkflowRunEvent.Kind.START);
            assertThat(start.runId()).hasToString(runId);
            assertThat(start.workflowId()).hasToString(workflowId);
            assertThat(start.version()).isEqualTo(1);
            assertThat(start.tenant()).isEqualTo("default");
            assertThat(start.onFailure()).isEqualTo(OnFailure.FAIL_FAST);
            assertThat(start.maxConcurrency()).isEqualTo(5);
            assertThat(start.nodes()).containsExactly(new WorkflowNode("extract", List.of()),
                    new WorkflowNode("a", List.of("extract")), new WorkflowNode("b", List.of("extract")),
                    new WorkflowNode("load", List.of("a", "b")));
            assertThat(start.traceId()).isEqualTo(CLIENT_TRACE);
            assertThat(start.traceparent()).as("the run's own span, in the client's trace")
                    .startsWith("00-" + CLIENT_TRACE + "-").doesNotContain(CLIENT_SPAN);
            assertThat(KafkaProbe.header(record, Headers.TRACEPARENT)).isEqualTo(start.traceparent());
            await().atMost(Duration.ofSeconds(20)).until(() -> publishedVersion(runId) == 1);

            JsonPath run = Workflows.run(runId);
            assertThat(run.getString("runId")).isEqualTo(runId);
            assertThat(run.getString("workflowId")).isEqualTo(workflowId);
            assertThat(run.getInt("version")).isEqualTo(1);
            assertThat(run.getString("status")).isEqualTo("PENDING");
            assertThat(run.getList("nodes.id")).containsExactly("extract", "a", "b", "load");
            assertThat(run.getList("nodes.status")).containsOnly("WAITING");
            assertThat(run.getList("nodes.jobId")).containsOnlyNulls();
            assertThat(run.getString("input.date")).isEqualTo("2026-11-26");
            assertThat(run.getList("input.rows")).containsExactly(1, 2);
            assertThat(run.getString("traceId")).isEqualTo(CLIENT_TRACE);
            assertThat(run.getString("createdAt")).isNotNull();
            assertThat(run.getString("finishedAt")).isNull();
        }
    }

    @Test
    void aRunKeepsItsVersionAfterAPutAndRunsAreListedNewestFirst() throws Exception {
        String workflowId = Workflows.createOne();
        String first = Workflows.start(workflowId, "{}").getString("runId");
        given().contentType(ContentType.JSON).body("""
                {"name":"v2","nodes":[{"id":"x","job":%1$s},{"id":"y","job":%1$s,"dependsOn":["x"]}]}"""
                .formatted(Workflows.JOB)).put("/api/workflows/" + workflowId).then().statusCode(200);
        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.WORKFLOW_RUNS)) {
            JsonPath second = Workflows.start(workflowId, "");
            assertThat(second.getInt("version")).isEqualTo(2);
            String secondId = second.getString("runId");
            ConsumerRecord<String, byte[]> record = probe.pollUntil(seen -> !probe.withKey(secondId).isEmpty(),
                    Duration.ofSeconds(30)).stream().filter(r -> secondId.equals(r.key())).findFirst().orElseThrow();
            WorkflowRunEvent start = mapper.readValue(record.value(), WorkflowRunEvent.class);
            assertThat(start.version()).isEqualTo(2);
            assertThat(start.nodes()).containsExactly(new WorkflowNode("x", List.of()),
                    new WorkflowNode("y", List.of("x")));
            assertThat(start.maxConcurrency()).isNull();

            JsonPath kept = Workflows.run(first);
            assertThat(kept.getInt("version")).as("the version it started with").isEqualTo(1);
            assertThat(kept.getList("nodes.id")).containsExactly("extract", "a", "b", "load");
            assertThat(kept.get("input") == null).as("no input given").isTrue();
            assertThat(Workflows.run(secondId).getList("nodes.id")).containsExactly("x", "y");

            JsonPath runs = given().get("/api/workflows/" + workflowId + "/runs").then().statusCode(200).extract()
                    .jsonPath();
            assertThat(runs.getList("runs.runId")).containsExactly(secondId, first);
            assertThat(runs.getLong("totalElements")).isEqualTo(2);
        }
    }

    @Test
    void aCancelIsPublishedAfterTheStartAndARunThatEndedCannotBeCancelled() throws Exception {
        String workflowId = Workflows.createOne();
        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.WORKFLOW_RUNS)) {
            String runId = Workflows.start(workflowId, "{}").getString("runId");
            Response cancelled = given().post("/api/workflow-runs/" + runId + "/cancel");
            assertThat(cancelled.statusCode()).as(cancelled.asString()).isEqualTo(202);
            assertThat(cancelled.jsonPath().getString("runId")).isEqualTo(runId);
            assertThat(cancelled.jsonPath().getBoolean("cancelRequested")).isTrue();
            assertThat(cancelled.jsonPath().getString("status")).as("until the scheduler reports it")
                    .isEqualTo("PENDING");

            probe.pollUntil(seen -> probe.withKey(runId).stream().anyMatch(r -> kind(r) == WorkflowRunEvent.Kind.CANCEL),
                    Duration.ofSeconds(30));
            List<WorkflowRunEvent.Kind> kinds = probe.withKey(runId).stream().map(this::kind).toList();
            assertThat(kinds).as("the start, then the cancel").endsWith(WorkflowRunEvent.Kind.CANCEL)
                    .startsWith(WorkflowRunEvent.Kind.START);
            await().atMost(Duration.ofSeconds(20)).until(() -> publishedVersion(runId) == 2);
            assertThat(given().post("/api/workflow-runs/" + runId + "/cancel").statusCode())
                    .as("asked again: answered as it is").isEqualTo(202);
        }

        String ended = Workflows.start(workflowId, "{}").getString("runId");
        UUID runId = UUID.fromString(ended);
        Map<String, NodeStatus> allCompleted = Workflows.NODES.stream()
                .collect(Collectors.toMap(node -> node, node -> NodeStatus.COMPLETED));
        KafkaProbe.sendAll(List.of(Workflows.progress(mapper, Workflows.progressEvent(runId, workflowId, 1,
                WorkflowRunStatus.COMPLETED, allCompleted, List.of()))));
        await().atMost(Duration.ofSeconds(30)).until(() -> "COMPLETED".equals(Workflows.run(ended)
                .getString("status")));
        Response refused = given().post("/api/workflow-runs/" + ended + "/cancel");
        assertThat(refused.statusCode()).as(refused.asString()).isEqualTo(409);
        assertThat(refused.jsonPath().getString("errorCode")).isEqualTo("API.WORKFLOW_RUN_NOT_CANCELLABLE");
        assertThat(refused.jsonPath().getString("message")).contains(ended, "COMPLETED");
        assertThat(Workflows.run(ended).getBoolean("cancelRequested")).isFalse();
    }

    @Test
    void aFailedOrCancelledRunIsRetriedFromTheEndItShows() throws Exception {
        String workflowId = Workflows.createOne();
        String failed = Workflows.start(workflowId, "{}").getString("runId");
        report(failed, workflowId, 3, WorkflowRunStatus.FAILED, Map.of("extract", NodeStatus.FAILED));
        String cancelled = Workflows.start(workflowId, "{}").getString("runId");
        assertThat(given().post("/api/workflow-runs/" + cancelled + "/cancel").statusCode()).isEqualTo(202);
        report(cancelled, workflowId, 2, WorkflowRunStatus.CANCELLED, Map.of("extract", NodeStatus.CANCELLED));

        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.WORKFLOW_RUNS)) {
            Response retried = given().post("/api/workflow-runs/" + failed + "/retry");
            assertThat(retried.statusCode()).as(retried.asString()).isEqualTo(202);
            assertThat(retried.jsonPath().getString("runId")).isEqualTo(failed);
            assertThat(retried.jsonPath().getString("status")).as("until the scheduler reports it")
                    .isEqualTo("FAILED");
            Response again = given().post("/api/workflow-runs/" + cancelled + "/retry");
            assertThat(again.statusCode()).as(again.asString()).isEqualTo(202);

            // published before the answer: on the topic at once, keyed by the run, naming the end it retries
            List<WorkflowRunEvent> asked = probe.readToEnd().stream()
                    .filter(r -> r.key().equals(failed) || r.key().equals(cancelled))
                    .map(this::read).filter(e -> e.kind() != WorkflowRunEvent.Kind.START).toList();
            // the two runs' records may be on different partitions: in no particular order
            assertThat(asked).extracting(e -> e.kind() + " " + e.runId() + " from " + e.progressVersion())
                    .containsExactlyInAnyOrder("RETRY " + failed + " from 3", "RETRY " + cancelled + " from 2");
        }
        assertThat(Workflows.run(cancelled).getBoolean("cancelRequested"))
                .as("a cancel of the retried run is a new ask").isFalse();
        // the retried run shows RUNNING once the scheduler reports it, and can be cancelled again
        report(cancelled, workflowId, 3, WorkflowRunStatus.RUNNING, Map.of("extract", NodeStatus.PENDING));
        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.WORKFLOW_RUNS)) {
            assertThat(given().post("/api/workflow-runs/" + cancelled + "/cancel").statusCode()).isEqualTo(202);
            probe.pollUntil(seen -> probe.withKey(cancelled).stream()
                    .anyMatch(r -> kind(r) == WorkflowRunEvent.Kind.CANCEL), Duration.ofSeconds(30));
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> publishedVersion(cancelled) == 3);
    }

    @Test
    void aRunThatHasNotEndedFailedOrCancelledIsNotRetried() throws Exception {
        String workflowId = Workflows.createOne();
        String pending = Workflows.start(workflowId, "{}").getString("runId");
        String completed = Workflows.start(workflowId, "{}").getString("runId");
        report(completed, workflowId, 1, WorkflowRunStatus.COMPLETED, Workflows.NODES.stream()
                .collect(Collectors.toMap(node -> node, node -> NodeStatus.COMPLETED)));

        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.WORKFLOW_RUNS)) {
            for (Map.Entry<String, String> run : Map.of(pending, "PENDING", completed, "COMPLETED").entrySet()) {
                Response refused = given().post("/api/workflow-runs/" + run.getKey() + "/retry");
                assertThat(refused.statusCode()).as(refused.asString()).isEqualTo(409);
                assertThat(refused.jsonPath().getString("errorCode")).isEqualTo("API.WORKFLOW_RUN_NOT_RETRYABLE");
                assertThat(refused.jsonPath().getString("message")).contains(run.getKey(), run.getValue(),
                        "FAILED or CANCELLED");
            }
            assertThat(probe.readToEnd().stream().filter(r -> (r.key().equals(completed) || r.key().equals(pending))
                    && kind(r) == WorkflowRunEvent.Kind.RETRY)).as("no retry").isEmpty();
        }
        Response unknown = given().post("/api/workflow-runs/" + UUID.randomUUID() + "/retry");
        assertThat(unknown.statusCode()).as(unknown.asString()).isEqualTo(404);
        assertThat(unknown.jsonPath().getString("errorCode")).isEqualTo("API.WORKFLOW_RUN_NOT_FOUND");
    }

    /** Reports run {@code runId} at {@code version} as the scheduler does, and waits until the API shows it. */
    private void report(String runId, String workflowId, long version, WorkflowRunStatus status,
                        Map<String, NodeStatus> nodes) {
        KafkaProbe.sendAll(List.of(Workflows.progress(mapper, Workflows.progressEvent(UUID.fromString(runId),
                workflowId, version, status, nodes, List.of()))));
        await().atMost(Duration.ofSeconds(30)).until(() -> status.name().equals(Workflows.run(runId)
                .getString("status")));
    }

    private WorkflowRunEvent read(ConsumerRecord<String, byte[]> record) {
        try {
            return mapper.readValue(record.value(), WorkflowRunEvent.class);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private WorkflowRunEvent.Kind kind(ConsumerRecord<String, byte[]> record) {
        try {
            return mapper.readValue(record.value(), WorkflowRunEvent.class).kind();
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static int publishedVersion(String runId) throws Exception {
        return (int) Database.firstLong("SELECT published_version FROM workflow_runs WHERE id = ?",
                UUID.fromString(runId));
    }
}
