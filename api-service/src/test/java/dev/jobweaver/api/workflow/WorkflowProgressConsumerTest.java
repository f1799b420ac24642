package dev.jobweaver.api.workflow;

import static dev.jobweaver.api.testing.Workflows.progressEvent;
import static dev.jobweaver.api.testing.Workflows.ready;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.api.testing.ConsumerTestSupport;
import dev.jobweaver.api.testing.Database;
import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.api.testing.KafkaProbe;
import dev.jobweaver.api.testing.Schedules;
import dev.jobweaver.api.testing.Workflows;
import dev.jobweaver.common.event.JobCreatedEvent;
import dev.jobweaver.common.event.WorkflowProgressEvent;
import dev.jobweaver.common.job.JobIds;
import dev.jobweaver.common.job.JobOrigin;
import dev.jobweaver.common.messaging.Headers;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.QuarantineReason;
import dev.jobweaver.common.workflow.NodeStatus;
import dev.jobweaver.common.workflow.WorkflowRunStatus;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/**
 * The progress consumer applies each run's newest event and makes each ready node's job once, through the submission
 * path, with the run's input, its dependencies' results, its origin and the run's trace; an older event changes
 * nothing; a bad record is quarantined and the event behind it applied.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class WorkflowProgressConsumerTest extends ConsumerTestSupport {

    @Test
    void readyNodesBecomeJobsOnceWithTheRunsInputTheirResultsAndTheRunsTrace() throws Exception {
        String workflowId = Workflows.createOne();
        JsonPath started = Workflows.start(workflowId, "{\"input\":{\"date\":\"2026-11-26\"}}");
        UUID runId = UUID.fromString(started.getString("runId"));
        String traceId = started.getString("traceId");
        String traceparent = runTraceparent(runId);
        UUID extract = JobIds.forNode(runId, "extract");
        UUID a = JobIds.forNode(runId, "a");
        UUID b = JobIds.forNode(runId, "b");
        WorkflowProgressEvent first = progressEvent(runId, workflowId, 1, WorkflowRunStatus.RUNNING,
                Map.of("extract", NodeStatus.PENDING), List.of(ready(runId, "extract", Map.of())));

        try (KafkaProbe created = KafkaProbe.atEndOf(Topics.JOB_CREATED)) {
            KafkaProbe.sendAll(List.of(Workflows.progress(mapper, first)));
            ConsumerRecord<String, byte[]> record = created.pollUntil(seen -> !created.withKey(extract.toString())
                    .isEmpty(), Duration.ofSeconds(30)).stream().filter(r -> extract.toString().equals(r.key()))
                    .findFirst().orElseThrow();
            JobCreatedEvent job = mapper.readValue(record.value(), JobCreatedEvent.class);
            assertThat(job.origin()).isEqualTo(JobOrigin.node(UUID.fromString(workflowId), runId, "extract", 5));
            assertThat(job.traceId()).as("the run's trace").isEqualTo(traceId);
            assertThat(KafkaProbe.header(record, Headers.TRACEPARENT)).startsWith("00-" + traceId + "-");
            assertThat(job.maxRetries()).isEqualTo(1);
            assertThat(job.payload().get("input").get("date").asText()).isEqualTo("2026-11-26");
            assertThat(job.payload().get("results").isObject()).isTrue();
            assertThat(job.payload().get("results").size()).isZero();
            assertThat(job.payload().get("steps").get(0).get("message").asText()).isEqualTo("node");
        }
        assertThat(traceparent).startsWith("00-" + traceId + "-");

        JsonPath job = Jobs.get(extract.toString());
        assertThat(job.getString("workflowRunId")).isEqualTo(runId.toString());
        assertThat(job.getString("workflowId")).isEqualTo(workflowId);
        assertThat(job.getString("nodeId")).isEqualTo("extract");
        assertThat(job.getString("traceId")).isEqualTo(traceId);
        assertThat(job.getString("payload.input.date")).isEqualTo("2026-11-26");
        JsonPath run = Workflows.run(runId.toString());
        assertThat(run.getString("status")).isEqualTo("RUNNING");
        assertThat(run.getString("nodes[0].status")).isEqualTo("PENDING");
        assertThat(run.getString("nodes[0].jobId")).isEqualTo(extract.toString());
        assertThat(run.getString("nodes[1].status")).isEqualTo("WAITING");

        // extract completed: a and b are ready with its result (fan-out); the event comes twice, with the first again
        JsonNode rows = mapper.readTree("{\"rows\":3}");
        WorkflowProgressEvent second = progressEvent(runId, workflowId, 2, WorkflowRunStatus.RUNNING,
                Map.of("extract", NodeStatus.COMPLETED, "a", NodeStatus.PENDING, "b", NodeStatus.PENDING),
                List.of(ready(runId, "a", Map.of("extract", rows)), ready(runId, "b", Map.of("extract", rows))));
        double made = madeCount();
        double stale = Jobs.count(registry, "jobweaver.workflow.progress.ignored", "reason", "stale");
        KafkaProbe.sendAll(List.of(Workflows.progress(mapper, second), Workflows.progress(mapper, second),
                Workflows.progress(mapper, first)));
        await().atMost(Duration.ofSeconds(30)).until(() -> jobsOf(runId) == 3);
        KafkaProbe.sendAll(List.of(Workflows.progress(mapper, second)));
        await().atMost(Duration.ofSeconds(30)).until(() -> Jobs.count(registry, "jobweaver.workflow.progress.ignored",
                "reason", "stale") >= stale + 3);

        assertThat(jobsOf(runId)).as("a redelivered ready node makes no second job").isEqualTo(3);
        assertThat(madeCount()).isEqualTo(made + 2);
        for (UUID id : List.of(extract, a, b)) {
            assertThat(outboxRowsOf(id)).as("no second outbox row").isLessThanOrEqualTo(1);
        }
        JsonPath nodeA = Jobs.get(a.toString());
        assertThat(nodeA.getInt("payload.results.extract.rows")).isEqualTo(3);
        assertThat(nodeA.getString("payload.input.date")).isEqualTo("2026-11-26");
        assertThat(nodeA.getString("nodeId")).isEqualTo("a");
        assertThat(Jobs.get(b.toString()).getInt("payload.results.extract.rows")).isEqualTo(3);
        JsonPath listed = given().queryParam("workflowRunId", runId.toString()).get("/api/jobs").then()
                .statusCode(200).extract().jsonPath();
        assertThat(listed.getList("jobs.id")).containsExactlyInAnyOrder(extract.toString(), a.toString(),
                b.toString());
        JsonPath state = Workflows.run(runId.toString());
        assertThat(state.getList("nodes.status")).containsExactly("COMPLETED", "PENDING", "PENDING", "WAITING");
        assertThat(state.getString("nodes[1].jobId")).isEqualTo(a.toString());
        assertThat(progressVersion(runId)).isEqualTo(2);
    }

    @Test
    void anOlderEventChangesNothing() throws Exception {
        String workflowId = Workflows.createOne();
        UUID runId = UUID.fromString(Workflows.start(workflowId, "{}").getString("runId"));
        WorkflowProgressEvent done = progressEvent(runId, workflowId, 5, WorkflowRunStatus.COMPLETED,
                Map.of("extract", NodeStatus.COMPLETED, "a", NodeStatus.COMPLETED, "b", NodeStatus.COMPLETED,
                        "load", NodeStatus.COMPLETED), List.of());
        KafkaProbe.sendAll(List.of(Workflows.progress(mapper, done)));
        await().atMost(Duration.ofSeconds(30)).until(() -> progressVersion(runId) == 5);
        double stale = Jobs.count(registry, "jobweaver.workflow.progress.ignored", "reason", "stale");

        KafkaProbe.sendAll(List.of(Workflows.progress(mapper, progressEvent(runId, workflowId, 4,
                WorkflowRunStatus.RUNNING, Map.of("extract", NodeStatus.RUNNING), List.of()))));
        await().atMost(Duration.ofSeconds(30)).until(() -> Jobs.count(registry, "jobweaver.workflow.progress.ignored",
                "reason", "stale") >= stale + 1);

        JsonPath run = Workflows.run(runId.toString());
        assertThat(run.getString("status")).isEqualTo("COMPLETED");
        assertThat(run.getList("nodes.status")).containsOnly("COMPLETED");
        assertThat(run.getString("finishedAt")).isNotNull();
        assertThat(progressVersion(runId)).isEqualTo(5);
    }

    @Test
    void aBadRecordIsQuarantinedAndTheEventBehindItApplied() throws Exception {
        String workflowId = Workflows.createOne();
        UUID runId = UUID.fromString(Workflows.start(workflowId, "{}").getString("runId"));
        double unreadable = quarantine.count(Topics.WORKFLOW_PROGRESS, QuarantineReason.UNREADABLE);
        double invalid = quarantine.count(Topics.WORKFLOW_PROGRESS, QuarantineReason.INVALID);
        WorkflowProgressEvent good = progressEvent(runId, workflowId, 1, WorkflowRunStatus.RUNNING,
                Map.of("extract", NodeStatus.PENDING), List.of(ready(runId, "extract", Map.of())));
        WorkflowProgressEvent wrongJob = progressEvent(runId, workflowId, 1, WorkflowRunStatus.RUNNING, Map.of(),
                List.of(new WorkflowProgressEvent.ReadyNode("extract", UUID.randomUUID(), Map.of())));
        WorkflowProgressEvent unknownNode = progressEvent(runId, workflowId, 1, WorkflowRunStatus.RUNNING, Map.of(),
                List.of(ready(runId, "nope", Map.of())));

        KafkaProbe.sendAll(List.of(
                new ProducerRecord<>(Topics.WORKFLOW_PROGRESS, runId.toString(),
                        "{not json".getBytes(StandardCharsets.UTF_8)),
                new ProducerRecord<>(Topics.WORKFLOW_PROGRESS, runId.toString(),
                        "{\"runId\":\"%s\"}".formatted(runId).getBytes(StandardCharsets.UTF_8)),
                // keyed by another run: it could overtake that run's events
                new ProducerRecord<>(Topics.WORKFLOW_PROGRESS, UUID.randomUUID().toString(),
                        Schedules.json(mapper, good)),
                Workflows.progress(mapper, wrongJob),
                // a node its version does not have: set aside when its transaction fails, the others applied
                Workflows.progress(mapper, unknownNode),
                Workflows.progress(mapper, good)));

        await().atMost(Duration.ofSeconds(30)).until(() -> jobsOf(runId) == 1);
        assertThat(Jobs.get(JobIds.forNode(runId, "extract").toString()).getString("nodeId")).isEqualTo("extract");
        await().atMost(Duration.ofSeconds(20)).until(() ->
                quarantine.count(Topics.WORKFLOW_PROGRESS, QuarantineReason.UNREADABLE) == unreadable + 1
                        && quarantine.count(Topics.WORKFLOW_PROGRESS, QuarantineReason.INVALID) == invalid + 4);
        assertThat(Workflows.run(runId.toString()).getString("status")).isEqualTo("RUNNING");
    }

    private double madeCount() {
        var counter = registry.find("jobweaver.workflow.node.jobs").counter();
        return counter == null ? 0 : counter.count();
    }

    private static long jobsOf(UUID runId) throws Exception {
        return Database.firstLong("SELECT count(*) FROM jobs WHERE workflow_run_id = ?", runId);
    }

    private static long outboxRowsOf(UUID jobId) throws Exception {
        return Database.firstLong("SELECT count(*) FROM job_outbox WHERE job_id = ?", jobId);
    }

    private static long progressVersion(UUID runId) throws Exception {
        return Database.firstLong("SELECT progress_version FROM workflow_runs WHERE id = ?", runId);
    }

    private static String runTraceparent(UUID runId) throws Exception {
        return Database.firstString("SELECT traceparent FROM workflow_runs WHERE id = ?", runId);
    }
}
