package dev.jobweaver.scheduler.workflow;

import static dev.jobweaver.scheduler.testing.TestWorkflows.node;
import static dev.jobweaver.scheduler.testing.TestWorkflows.nodeIn;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.event.JobCommandEvent;
import dev.jobweaver.common.event.JobCreatedEvent;
import dev.jobweaver.common.event.WorkflowProgressEvent;
import dev.jobweaver.common.job.JobCommand;
import dev.jobweaver.common.job.JobOrigin;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.workflow.NodeStatus;
import dev.jobweaver.common.workflow.OnFailure;
import dev.jobweaver.common.workflow.WorkflowRunStatus;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.scheduler.testing.TestJobs;
import dev.jobweaver.scheduler.testing.WorkflowKafkaTest;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A failed node ends its run FAILED: {@code FAIL_FAST} cancels what had not finished (jobs included, through the
 * cancel path), {@code CONTINUE} skips what depends on the failure and runs the rest. A client's cancel ends a run
 * CANCELLED, also when it comes before the run's START; a node job whose run has ended is stored CANCELLED.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class WorkflowFailureTest extends WorkflowKafkaTest {

    @Test
    void failFastCancelsEveryNodeThatHasNotFinished() {
        UUID runId = workflows.start(OnFailure.FAIL_FAST, List.of(node("a"), node("b", "a"), node("c")));
        workflows.awaitVersion(runId, 1);
        UUID c = job(runId, "c");
        db.awaitJob(c, JobStatus.RUNNING, 1);

        fail(runId, "a");
        WorkflowProgressEvent last = workflows.await(runId, e -> e.status().terminal());

        assertThat(last.status()).isEqualTo(WorkflowRunStatus.FAILED);
        assertThat(nodeIn(last, "a").status()).isEqualTo(NodeStatus.FAILED);
        assertThat(nodeIn(last, "b").status()).isEqualTo(NodeStatus.CANCELLED);
        assertThat(nodeIn(last, "b").jobId()).isNull();
        assertThat(nodeIn(last, "c").status()).isEqualTo(NodeStatus.CANCELLED);
        assertThat(nodeIn(last, "c").jobId()).isEqualTo(c);
        // c's job was running: the scheduler's cancel path cancels it and tells the workers.
        db.awaitJob(c, j -> j.status() == JobStatus.CANCELLED);
        recorder.await(Topics.WORKER_COMMANDS, c, 1);
        assertThat(workerCommands(c)).extracting(JobCommandEvent::command).containsExactly(JobCommand.CANCEL);
        settle();
        assertThat(db.find(job(runId, "b"))).isEmpty();
        assertThat(workflows.events(runId).stream().filter(e -> e.status().terminal())).hasSize(1);
    }

    @Test
    void continueSkipsTheDependentsOfAFailureAndRunsTheOthers() {
        UUID runId = workflows.start(OnFailure.CONTINUE,
                List.of(node("a"), node("b", "a"), node("c", "b"), node("d"), node("e", "d")));
        workflows.awaitVersion(runId, 1);

        fail(runId, "a");
        WorkflowProgressEvent afterFailure = workflows.awaitVersion(runId, 2);
        assertThat(afterFailure.status()).isEqualTo(WorkflowRunStatus.RUNNING);
        assertThat(nodeIn(afterFailure, "b").status()).isEqualTo(NodeStatus.SKIPPED);
        assertThat(nodeIn(afterFailure, "c").status()).isEqualTo(NodeStatus.SKIPPED);

        complete(runId, "d");
        complete(runId, "e");
        WorkflowProgressEvent last = workflows.await(runId, e -> e.status().terminal());
        assertThat(last.status()).isEqualTo(WorkflowRunStatus.FAILED);
        assertThat(nodeIn(last, "d").status()).isEqualTo(NodeStatus.COMPLETED);
        assertThat(nodeIn(last, "e").status()).isEqualTo(NodeStatus.COMPLETED);
        assertThat(db.find(job(runId, "b"))).isEmpty();
        assertThat(db.find(job(runId, "c"))).isEmpty();
    }

    @Test
    void aCancelEndsTheRunAndCancelsItsJobs() {
        UUID runId = workflows.start(OnFailure.FAIL_FAST, List.of(node("a"), node("b", "a")));
        workflows.awaitVersion(runId, 1);
        UUID a = job(runId, "a");
        db.awaitJob(a, JobStatus.RUNNING, 1);

        workflows.cancel(runId);
        WorkflowProgressEvent last = workflows.await(runId, e -> e.status().terminal());

        assertThat(last.status()).isEqualTo(WorkflowRunStatus.CANCELLED);
        assertThat(last.finishedAt()).isNotNull();
        assertThat(last.nodes()).allSatisfy(n -> assertThat(n.status()).isEqualTo(NodeStatus.CANCELLED));
        db.awaitJob(a, j -> j.status() == JobStatus.CANCELLED);
        // The worker's report of the interrupted run changes nothing more.
        producer.sendJson(Topics.JOB_FAILED, a, TestJobs.failed(a, 1, "WORKER.CANCELLED"));
        workflows.cancel(runId);
        settle();
        assertThat(workflows.events(runId)).hasSize(2);
    }

    @Test
    void aCancelBeforeItsStartMakesACancelledRun() {
        UUID runId = UUID.randomUUID();
        workflows.cancel(runId);
        workflows.start(runId, OnFailure.FAIL_FAST, List.of(node("a"), node("b", "a")));

        WorkflowProgressEvent only = workflows.await(runId, e -> true);
        assertThat(only.version()).isEqualTo(1);
        assertThat(only.status()).isEqualTo(WorkflowRunStatus.CANCELLED);
        assertThat(only.ready()).isEmpty();
        assertThat(only.nodes()).extracting(WorkflowProgressEvent.Node::status)
                .containsExactly(NodeStatus.CANCELLED, NodeStatus.CANCELLED);
        settle();
        assertThat(workflows.events(runId)).hasSize(1);
        assertThat(db.find(job(runId, "a"))).isEmpty();
    }

    @Test
    void aNodeJobOfAnEndedRunIsStoredCancelledAndOneOfARunNotStoredRuns() {
        UUID runId = workflows.start(OnFailure.FAIL_FAST, List.of(node("a"), node("b", "a")));
        workflows.awaitVersion(runId, 1);
        workflows.cancel(runId);
        workflows.await(runId, e -> e.status().terminal());
        UUID late = job(runId, "b");
        producer.sendJson(Topics.JOB_CREATED, late, nodeJob(runId, "b"));

        db.awaitJob(late, j -> j.status() == JobStatus.CANCELLED && j.version() == 1);
        assertThat(recorder.records(Topics.RUN_JOB, late)).isEmpty();

        // A run the scheduler has not stored: its START may have published its roots and rolled back, to come again.
        UUID unstored = UUID.randomUUID();
        UUID root = job(unstored, "root");
        producer.sendJson(Topics.JOB_CREATED, root, nodeJob(unstored, "root"));
        db.awaitJob(root, JobStatus.RUNNING, 1);
    }

    @Test
    void aStartAppliedAgainTakesTheEndsOfRootJobsMadeMeanwhile() {
        // The START's first transaction published the roots and rolled back; the API made the root's job, which ran.
        UUID runId = UUID.randomUUID();
        UUID root = job(runId, "root");
        producer.sendJson(Topics.JOB_CREATED, root, nodeJob(runId, "root"));
        db.awaitJob(root, JobStatus.RUNNING, 1);
        producer.sendJson(Topics.JOB_COMPLETED, root, TestJobs.completed(root, 1, workflows.result("root")));
        db.awaitJob(root, j -> j.status() == JobStatus.COMPLETED);

        workflows.start(runId, OnFailure.FAIL_FAST, List.of(node("root"), node("next", "root")));

        WorkflowProgressEvent first = workflows.awaitVersion(runId, 1);
        assertThat(nodeIn(first, "root").status()).isEqualTo(NodeStatus.COMPLETED);
        assertThat(first.ready()).extracting(WorkflowProgressEvent.ReadyNode::nodeId).containsExactly("next");
        assertThat(first.ready().getFirst().results().get("root").get("from").asText()).isEqualTo("root");
    }

    private static JobCreatedEvent nodeJob(UUID runId, String nodeId) {
        UUID jobId = job(runId, nodeId);
        JobCreatedEvent created = TestJobs.created(jobId, 0);
        return new JobCreatedEvent(jobId, created.jobType(), created.payload(), 0, created.traceId(), Instant.now(),
                null, JobOrigin.node(UUID.randomUUID(), runId, nodeId, null));
    }
}
