package dev.jobweaver.scheduler.workflow;

import static dev.jobweaver.scheduler.testing.TestWorkflows.node;
import static dev.jobweaver.scheduler.testing.TestWorkflows.nodeIn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.common.event.WorkflowProgressEvent;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.workflow.NodeStatus;
import dev.jobweaver.common.workflow.OnFailure;
import dev.jobweaver.common.workflow.WorkflowNode;
import dev.jobweaver.common.workflow.WorkflowRunStatus;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.scheduler.job.JobExecution;
import dev.jobweaver.scheduler.testing.TestJobs;
import dev.jobweaver.scheduler.testing.WorkflowKafkaTest;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Runs go in dependency order: nodes become ready when their dependencies completed, all at once when they can, each
 * with its dependencies' results; a run ends COMPLETED when every node did. A START or an outcome delivered twice
 * changes nothing.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class WorkflowOrchestrationTest extends WorkflowKafkaTest {

    @Inject
    Pool pool;

    @Test
    void aRunStartedByAScheduleKeepsItsScheduleForTheOverlapCheck() {
        UUID runId = UUID.randomUUID();
        UUID scheduleId = UUID.randomUUID();
        workflows.startScheduled(runId, scheduleId, OnFailure.FAIL_FAST, List.of(node("a")));
        workflows.awaitVersion(runId, 1);

        // the progress event is published before its transaction commits: wait for the row
        Row row = await().atMost(Duration.ofSeconds(10)).until(() -> {
            var rows = pool.preparedQuery("SELECT schedule_id, status FROM workflow_runs WHERE run_id = $1")
                    .execute(Tuple.of(runId)).await().atMost(Duration.ofSeconds(10)).iterator();
            return rows.hasNext() ? rows.next() : null;
        }, java.util.Objects::nonNull);
        assertThat(row.getUUID("schedule_id")).isEqualTo(scheduleId);
        assertThat(row.getString("status")).isEqualTo("RUNNING");
    }

    @Test
    void aDiamondRunsInDependencyOrder() {
        UUID runId = workflows.start(OnFailure.FAIL_FAST,
                List.of(node("a"), node("b", "a"), node("c", "a"), node("d", "b", "c")));

        WorkflowProgressEvent first = workflows.awaitVersion(runId, 1);
        assertThat(first.version()).isEqualTo(1);
        assertThat(first.status()).isEqualTo(WorkflowRunStatus.RUNNING);
        assertThat(first.ready()).extracting(WorkflowProgressEvent.ReadyNode::nodeId).containsExactly("a");
        assertThat(first.ready().getFirst().results()).isEmpty();
        assertThat(first.ready().getFirst().jobId()).isEqualTo(job(runId, "a"));
        assertThat(nodeIn(first, "b").status()).isEqualTo(NodeStatus.WAITING);
        assertThat(nodeIn(first, "b").jobId()).isNull();

        complete(runId, "a");
        WorkflowProgressEvent second = workflows.awaitVersion(runId, 2);
        assertThat(second.ready()).extracting(WorkflowProgressEvent.ReadyNode::nodeId).containsExactly("b", "c");
        assertThat(second.ready()).allSatisfy(r -> assertThat(r.results()).containsOnlyKeys("a"));
        assertThat(nodeIn(second, "a").status()).isEqualTo(NodeStatus.COMPLETED);

        complete(runId, "b");
        WorkflowProgressEvent third = workflows.awaitVersion(runId, 3);
        assertThat(third.ready()).isEmpty();
        assertThat(nodeIn(third, "d").status()).isEqualTo(NodeStatus.WAITING);
        assertThat(db.find(job(runId, "d"))).as("d's job before c completed").isEmpty();

        complete(runId, "c");
        WorkflowProgressEvent fourth = workflows.awaitVersion(runId, 4);
        assertThat(fourth.ready()).extracting(WorkflowProgressEvent.ReadyNode::nodeId).containsExactly("d");

        complete(runId, "d");
        WorkflowProgressEvent last = workflows.await(runId, e -> e.status().terminal());
        assertThat(last.status()).isEqualTo(WorkflowRunStatus.COMPLETED);
        assertThat(last.version()).isEqualTo(5);
        assertThat(last.finishedAt()).isNotNull();
        assertThat(last.nodes()).allSatisfy(n -> assertThat(n.status()).isEqualTo(NodeStatus.COMPLETED));
        // the progress event is published before the outcome's transaction commits: wait for d's row
        JobExecution d = db.awaitJob(job(runId, "d"), j -> j.status() == JobStatus.COMPLETED);
        assertThat(d.status()).isEqualTo(JobStatus.COMPLETED);
    }

    @Test
    void aFanOutOfNinetyNineNodesIsReadyAtOnce() {
        List<WorkflowNode> nodes = new ArrayList<>();
        nodes.add(node("root"));
        for (int i = 0; i < 99; i++) {
            nodes.add(node("leaf-" + i, "root"));
        }
        UUID runId = workflows.start(OnFailure.CONTINUE, nodes);
        workflows.awaitVersion(runId, 1);

        complete(runId, "root");
        WorkflowProgressEvent fanned = workflows.awaitVersion(runId, 2);
        assertThat(fanned.ready()).hasSize(99);
        assertThat(fanned.nodes().stream().filter(n -> n.status() == NodeStatus.PENDING)).hasSize(99);

        for (int i = 0; i < 99; i++) {
            db.awaitJob(job(runId, "leaf-" + i), JobStatus.RUNNING, 1);
        }
        for (int i = 0; i < 99; i++) {
            UUID jobId = job(runId, "leaf-" + i);
            producer.sendJson(Topics.JOB_COMPLETED, jobId, TestJobs.completed(jobId, 1));
        }
        WorkflowProgressEvent last = workflows.await(runId, e -> e.status().terminal());
        assertThat(last.status()).isEqualTo(WorkflowRunStatus.COMPLETED);
        assertThat(workflows.events(runId).stream().filter(e -> e.status().terminal())).hasSize(1);
    }

    @Test
    void aFanInNodeReceivesTheResultsOfAllItsDependencies() throws Exception {
        UUID runId = workflows.start(OnFailure.FAIL_FAST,
                List.of(node("x"), node("y"), node("z"), node("sink", "x", "y", "z")));
        WorkflowProgressEvent first = workflows.awaitVersion(runId, 1);
        assertThat(first.ready()).extracting(WorkflowProgressEvent.ReadyNode::nodeId).containsExactly("x", "y", "z");

        complete(runId, "x");
        complete(runId, "y");
        complete(runId, "z");
        WorkflowProgressEvent.ReadyNode sink = workflows.await(runId, e -> e.ready().stream()
                .anyMatch(r -> r.nodeId().equals("sink"))).ready().stream()
                .filter(r -> r.nodeId().equals("sink")).findFirst().orElseThrow();

        Map<String, JsonNode> results = sink.results();
        assertThat(results).containsOnlyKeys("x", "y", "z");
        assertThat(results.get("x").get("from").asText()).isEqualTo("x");
        assertThat(results.get("y").get("from").asText()).isEqualTo("y");
        assertThat(results.get("z").get("from").asText()).isEqualTo("z");
        // The stand-in made the sink's job with those results, as the API does.
        JobExecution job = db.awaitJob(sink.jobId(), j -> true);
        JsonNode received = mapper.readTree(job.instruction());
        assertThat(received.path("results").path("z").path("from").asText()).isEqualTo("z");
        assertThat(received.path("input").path("run").asText()).isEqualTo(runId.toString());
    }

    @Test
    void aRedeliveredStartAndRedeliveredOutcomesChangeNothing() {
        List<WorkflowNode> graph = List.of(node("a"), node("b", "a"));
        UUID runId = workflows.start(OnFailure.FAIL_FAST, graph);
        workflows.awaitVersion(runId, 1);
        workflows.start(runId, OnFailure.CONTINUE, graph);

        UUID a = job(runId, "a");
        db.awaitJob(a, JobStatus.RUNNING, 1);
        producer.sendJson(Topics.JOB_COMPLETED, a, TestJobs.completed(a, 1, workflows.result("a")));
        producer.sendJson(Topics.JOB_COMPLETED, a, TestJobs.completed(a, 1, workflows.result("a")));
        workflows.awaitVersion(runId, 2);

        complete(runId, "b");
        UUID b = job(runId, "b");
        producer.sendJson(Topics.JOB_COMPLETED, b, TestJobs.completed(b, 1, workflows.result("b")));
        WorkflowProgressEvent last = workflows.await(runId, e -> e.status().terminal());
        settle();

        // One event per change, each version once: the second START and the second outcomes published nothing.
        assertThat(workflows.events(runId)).extracting(WorkflowProgressEvent::version).containsExactly(1L, 2L, 3L);
        assertThat(last.status()).isEqualTo(WorkflowRunStatus.COMPLETED);
        assertThat(workflows.readyOf(runId, "b")).hasSize(1);
        assertThat(workflows.made(b)).hasSize(1);
    }
}
