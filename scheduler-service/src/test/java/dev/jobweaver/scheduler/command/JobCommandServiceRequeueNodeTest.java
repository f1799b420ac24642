package dev.jobweaver.scheduler.command;

import static dev.jobweaver.scheduler.testing.TestWorkflows.nodeIn;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.event.WorkflowProgressEvent;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.workflow.NodeStatus;
import dev.jobweaver.common.workflow.OnFailure;
import dev.jobweaver.common.workflow.WorkflowRunStatus;
import dev.jobweaver.scheduler.job.JobExecution;
import dev.jobweaver.scheduler.testing.TestJobs;
import dev.jobweaver.scheduler.testing.TestWorkflows;
import dev.jobweaver.scheduler.testing.WorkflowKafkaTest;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A workflow node's dead-lettered job requeued by a client runs again under its id, and resumes its run in the same
 * transaction: the node waits for its job again, the dependents its failure skipped wait again, the ended run is
 * RUNNING again and goes on to its end. A client's requeue never moves a node's cancelled job.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class JobCommandServiceRequeueNodeTest extends WorkflowKafkaTest {

    @Test
    void aFailedNodeJobRequeuedResumesItsEndedRun() {
        UUID runId = workflows.start(OnFailure.CONTINUE, List.of(TestWorkflows.node("a"),
                TestWorkflows.node("b", "a")));
        fail(runId, "a");
        UUID jobId = job(runId, "a");
        JobExecution failed = db.awaitJob(jobId, j -> j.status() == JobStatus.FAILED);
        WorkflowProgressEvent ended = workflows.await(runId, e -> e.status() == WorkflowRunStatus.FAILED);
        assertThat(nodeIn(ended, "b").status()).isEqualTo(NodeStatus.SKIPPED);

        commandsApplied(TestJobs.requeue(jobId, null, null, failed.finishedAt()));

        WorkflowProgressEvent resumed = workflows.awaitVersion(runId, ended.version() + 1);
        assertThat(resumed.status()).isEqualTo(WorkflowRunStatus.RUNNING);
        assertThat(nodeIn(resumed, "a").status()).isEqualTo(NodeStatus.PENDING);
        assertThat(nodeIn(resumed, "b").status()).isEqualTo(NodeStatus.WAITING);
        db.awaitJob(jobId, JobStatus.RUNNING, 2);
        producer.sendJson(Topics.JOB_COMPLETED, jobId, TestJobs.completed(jobId, 2, workflows.result("a")));
        complete(runId, "b");
        WorkflowProgressEvent last = workflows.await(runId, e -> e.status() == WorkflowRunStatus.COMPLETED);
        assertThat(last.runId()).isEqualTo(runId);
    }

    @Test
    void aClientsRequeueOfANodesCancelledJobChangesNothing() {
        UUID runId = workflows.start(OnFailure.FAIL_FAST, List.of(TestWorkflows.node("a")));
        UUID jobId = job(runId, "a");
        db.awaitJob(jobId, JobStatus.RUNNING, 1);
        workflows.cancel(runId);
        JobExecution cancelled = db.awaitJob(jobId, j -> j.status() == JobStatus.CANCELLED);
        workflows.await(runId, e -> e.status() == WorkflowRunStatus.CANCELLED);
        long progressBefore = workflows.events(runId).size();

        commandsApplied(TestJobs.requeue(jobId, null, null, cancelled.finishedAt()));

        settle();
        assertThat(db.get(jobId)).isEqualTo(cancelled);
        assertThat(workflows.events(runId)).hasSize((int) progressBefore);
    }
}
