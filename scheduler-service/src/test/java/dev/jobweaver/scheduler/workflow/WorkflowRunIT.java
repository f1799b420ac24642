package dev.jobweaver.scheduler.workflow;

import static dev.jobweaver.scheduler.testing.TestWorkflows.node;
import static dev.jobweaver.scheduler.testing.TestWorkflows.nodeIn;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.event.WorkflowProgressEvent;
import dev.jobweaver.common.job.JobIds;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.workflow.NodeStatus;
import dev.jobweaver.common.workflow.OnFailure;
import dev.jobweaver.common.workflow.WorkflowRunStatus;
import dev.jobweaver.scheduler.testing.ExecutableTest;
import dev.jobweaver.scheduler.testing.TestJobs;
import dev.jobweaver.scheduler.testing.TestWorkflows;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A workflow run started on {@code workflow-runs} goes through the native executable in dependency order: its first
 * node is ready at once, the node that depends on it once it completed (with its result), and the run ends
 * COMPLETED, each step reported on {@code workflow-progress}. {@link TestWorkflows} makes the ready nodes' jobs as the
 * API does; the test reports their outcomes as a worker does.
 */
@QuarkusIntegrationTest
@JobWeaverTest(database = "jobweaver_scheduler")
class WorkflowRunIT extends ExecutableTest {

    private TestWorkflows workflows;

    @BeforeEach
    void startWorkflows() {
        workflows = new TestWorkflows(bootstrapServers(), producer, mapper());
    }

    @AfterEach
    void stopWorkflows() throws InterruptedException {
        workflows.close();
    }

    @Test
    void aTwoNodeRunCompletesInDependencyOrderWithTheFirstNodesResult() {
        UUID runId = workflows.start(OnFailure.FAIL_FAST, List.of(node("extract"), node("load", "extract")));

        WorkflowProgressEvent first = workflows.awaitVersion(runId, 1);
        assertThat(first.status()).isEqualTo(WorkflowRunStatus.RUNNING);
        assertThat(first.ready()).extracting(WorkflowProgressEvent.ReadyNode::nodeId).containsExactly("extract");
        assertThat(nodeIn(first, "load").status()).isEqualTo(NodeStatus.WAITING);

        complete(runId, "extract");
        WorkflowProgressEvent second = workflows.awaitVersion(runId, 2);
        assertThat(second.ready()).extracting(WorkflowProgressEvent.ReadyNode::nodeId).containsExactly("load");
        assertThat(second.ready().getFirst().results()).containsEntry("extract", workflows.result("extract"));

        complete(runId, "load");
        WorkflowProgressEvent last = workflows.await(runId, e -> e.status().terminal());
        assertThat(last.status()).isEqualTo(WorkflowRunStatus.COMPLETED);
        assertThat(last.finishedAt()).isNotNull();
        assertThat(last.nodes()).allSatisfy(n -> assertThat(n.status()).isEqualTo(NodeStatus.COMPLETED));
    }

    /** Waits until the node's job is dispatched, then reports its success with a result naming the node. */
    private void complete(UUID runId, String nodeId) {
        UUID jobId = JobIds.forNode(runId, nodeId);
        awaitRun(jobId, 1);
        producer.sendJson(Topics.JOB_COMPLETED, jobId, TestJobs.completed(jobId, 1, workflows.result(nodeId)));
    }
}
