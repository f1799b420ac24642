package dev.jobweaver.scheduler.workflow;

import static dev.jobweaver.scheduler.testing.TestWorkflows.node;
import static dev.jobweaver.scheduler.testing.TestWorkflows.nodeIn;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.event.JobStatusChangedEvent;
import dev.jobweaver.common.event.WorkflowProgressEvent;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.workflow.NodeStatus;
import dev.jobweaver.common.workflow.OnFailure;
import dev.jobweaver.common.workflow.WorkflowRunStatus;
import dev.jobweaver.scheduler.job.JobExecution;
import dev.jobweaver.scheduler.testing.TestJobs;
import dev.jobweaver.scheduler.testing.WorkflowKafkaTest;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A retry of a run that ended {@code FAILED} or {@code CANCELLED} ({@code RETRY} on {@code workflow-runs}) runs its
 * unfinished nodes again under the same runId: their jobs are requeued under their ids, their attempts numbered on,
 * and the run goes on to its end. A retry of another end than the run's current one changes nothing.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class WorkflowOrchestratorRetryTest extends WorkflowKafkaTest {

    @Test
    void aFailedRunRetriedCompletesUnderItsRunIdWithItsNodeJobsAttemptsNumberedOn() {
        UUID runId = workflows.start(OnFailure.FAIL_FAST, List.of(node("a"), node("b", "a")));
        UUID a = job(runId, "a");
        fail(runId, "a");
        WorkflowProgressEvent failed = workflows.await(runId, e -> e.status() == WorkflowRunStatus.FAILED);
        db.awaitJob(a, j -> j.status() == JobStatus.FAILED);

        workflows.retry(runId, failed.version());

        WorkflowProgressEvent retried = workflows.awaitVersion(runId, failed.version() + 1);
        assertThat(retried.runId()).isEqualTo(runId);
        assertThat(retried.status()).isEqualTo(WorkflowRunStatus.RUNNING);
        assertThat(retried.finishedAt()).isNull();
        assertThat(nodeIn(retried, "a").status()).isEqualTo(NodeStatus.PENDING);
        assertThat(nodeIn(retried, "a").jobId()).isEqualTo(a);
        assertThat(nodeIn(retried, "b").status()).isEqualTo(NodeStatus.WAITING);
        assertThat(retried.ready()).as("a's job is requeued, not made again").isEmpty();

        JobExecution second = db.awaitJob(a, JobStatus.RUNNING, 2);
        assertThat(second.retryCount()).isZero();
        producer.sendJson(Topics.JOB_COMPLETED, a, TestJobs.completed(a, 2, workflows.result("a")));
        complete(runId, "b");

        WorkflowProgressEvent last = workflows.await(runId, e -> e.status() == WorkflowRunStatus.COMPLETED);
        assertThat(last.runId()).isEqualTo(runId);
        assertThat(nodeIn(last, "a").status()).isEqualTo(NodeStatus.COMPLETED);
        assertThat(nodeIn(last, "b").status()).isEqualTo(NodeStatus.COMPLETED);
        assertThat(db.get(a).attempt()).isEqualTo(2);
        // one job, one history: FAILED after attempt 1, then PENDING, RUNNING and COMPLETED as attempt 2
        List<JobStatusChangedEvent> statuses = awaitStatuses(a, 5);
        assertThat(statuses).extracting(JobStatusChangedEvent::status).containsSubsequence(JobStatus.RUNNING,
                JobStatus.FAILED, JobStatus.PENDING, JobStatus.RUNNING, JobStatus.COMPLETED);
        assertThat(statuses.getLast().attempts()).isEqualTo(2);
        assertThat(workflows.made(a)).as("the node's job was made once").hasSize(1);
    }

    @Test
    void aCancelledRunRetriedRunsItsCancelledNodeJobsAgain() {
        UUID runId = workflows.start(OnFailure.FAIL_FAST, List.of(node("a"), node("b", "a")));
        UUID a = job(runId, "a");
        db.awaitJob(a, JobStatus.RUNNING, 1);
        workflows.cancel(runId);
        WorkflowProgressEvent cancelled = workflows.await(runId, e -> e.status() == WorkflowRunStatus.CANCELLED);
        db.awaitJob(a, j -> j.status() == JobStatus.CANCELLED);

        workflows.retry(runId, cancelled.version());

        db.awaitJob(a, JobStatus.RUNNING, 2);
        producer.sendJson(Topics.JOB_COMPLETED, a, TestJobs.completed(a, 2, workflows.result("a")));
        complete(runId, "b");
        WorkflowProgressEvent last = workflows.await(runId, e -> e.status() == WorkflowRunStatus.COMPLETED);
        assertThat(last.runId()).isEqualTo(runId);
    }

    @Test
    void aRetryOfAnEndThatIsNotTheRunsCurrentOneChangesNothing() {
        UUID runId = workflows.start(OnFailure.FAIL_FAST, List.of(node("a")));
        UUID a = job(runId, "a");
        fail(runId, "a");
        WorkflowProgressEvent failed = workflows.await(runId, e -> e.status() == WorkflowRunStatus.FAILED);
        db.awaitJob(a, j -> j.status() == JobStatus.FAILED);

        workflows.retry(runId, failed.version() - 1);
        settle();

        assertThat(workflows.events(runId).getLast().version()).isEqualTo(failed.version());
        assertThat(db.get(a).status()).isEqualTo(JobStatus.FAILED);
        assertThat(db.get(a).attempt()).isEqualTo(1);
    }
}
