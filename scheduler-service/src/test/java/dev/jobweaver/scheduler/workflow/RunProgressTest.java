package dev.jobweaver.scheduler.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.job.JobIds;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.workflow.NodeStatus;
import dev.jobweaver.common.workflow.OnFailure;
import dev.jobweaver.common.workflow.WorkflowRunStatus;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The rules of a run's progress, in memory: readiness, failure handling, ends. */
class RunProgressTest {

    private static final Instant NOW = Instant.parse("2026-11-26T10:00:00Z");
    private static final UUID RUN = UUID.randomUUID();

    @Test
    void aNodeIsReadyOnlyWhenAllItsDependenciesCompleted() {
        RunProgress run = TestRuns.run(RUN, NOW, OnFailure.FAIL_FAST, "a", "b", "c:a,b");
        run.start(NOW);
        assertThat(ready(run)).containsExactly("a", "b");

        run = reread(run);
        assertThat(run.jobEnded("a", JobStatus.COMPLETED, NOW)).isTrue();
        assertThat(ready(run)).isEmpty();
        assertThat(run.jobEnded("b", JobStatus.COMPLETED, NOW)).isTrue();
        assertThat(ready(run)).containsExactly("c");
        assertThat(run.run().status()).isEqualTo(WorkflowRunStatus.RUNNING);

        run = reread(run);
        run.jobEnded("c", JobStatus.COMPLETED, NOW);
        assertThat(run.run().status()).isEqualTo(WorkflowRunStatus.COMPLETED);
        assertThat(run.run().finishedAt()).isEqualTo(NOW);
    }

    @Test
    void failFastCancelsTheRestAndTheJobsOfReadyNodes() {
        RunProgress run = started(OnFailure.FAIL_FAST, "a", "b", "c:a");

        run.jobEnded("a", JobStatus.FAILED, NOW);

        assertThat(status(run, "a")).isEqualTo(NodeStatus.FAILED);
        assertThat(status(run, "b")).isEqualTo(NodeStatus.CANCELLED);
        assertThat(status(run, "c")).isEqualTo(NodeStatus.CANCELLED);
        assertThat(run.jobsToCancel()).containsExactly(JobIds.forNode(RUN, "b"));
        assertThat(run.run().status()).isEqualTo(WorkflowRunStatus.FAILED);
    }

    @Test
    void continueSkipsDependentsTransitivelyAndEndsFailedWhenTheRestEnded() {
        RunProgress run = started(OnFailure.CONTINUE, "a", "b:a", "c:b", "d", "e:c,d");

        run.jobEnded("a", JobStatus.CANCELLED, NOW);
        assertThat(status(run, "b")).isEqualTo(NodeStatus.SKIPPED);
        assertThat(status(run, "c")).isEqualTo(NodeStatus.SKIPPED);
        assertThat(status(run, "e")).isEqualTo(NodeStatus.SKIPPED);
        assertThat(status(run, "d")).isEqualTo(NodeStatus.PENDING);
        assertThat(run.jobsToCancel()).isEmpty();
        assertThat(run.run().status()).isEqualTo(WorkflowRunStatus.RUNNING);

        run.jobEnded("d", JobStatus.COMPLETED, NOW);
        assertThat(ready(run)).isEmpty();
        assertThat(run.run().status()).isEqualTo(WorkflowRunStatus.FAILED);
    }

    @Test
    void anEndedRunOrNodeTakesNoMoreChanges() {
        RunProgress run = started(OnFailure.FAIL_FAST, "a", "b");
        assertThat(run.cancel(NOW)).isTrue();
        assertThat(run.jobsToCancel()).hasSize(2);

        run = reread(run);
        assertThat(run.jobEnded("a", JobStatus.COMPLETED, NOW)).isFalse();
        assertThat(run.cancel(NOW)).isFalse();
        assertThat(run.changed()).isFalse();
    }

    @Test
    void aNodeMadeReadyAndCancelledByOneChangeNeverGetsItsJob() {
        RunProgress run = started(OnFailure.FAIL_FAST, "a", "b", "c:a");

        run.jobEnded("a", JobStatus.COMPLETED, NOW);
        run.jobEnded("b", JobStatus.FAILED, NOW);

        assertThat(ready(run)).isEmpty();
        assertThat(status(run, "c")).isEqualTo(NodeStatus.CANCELLED);
        assertThat(run.node("c").readyAt()).isNull();
        assertThat(run.jobsToCancel()).isEmpty();
        assertThat(run.run().status()).isEqualTo(WorkflowRunStatus.FAILED);
    }

    @Test
    void aReadyNodeThatCannotGetItsJobFailsLikeItsJob() {
        RunProgress run = started(OnFailure.CONTINUE, "a", "b:a", "c:b");
        run.jobEnded("a", JobStatus.COMPLETED, NOW);
        assertThat(ready(run)).containsExactly("b");

        run.nodeFailed("b", NOW);

        assertThat(ready(run)).isEmpty();
        assertThat(status(run, "b")).isEqualTo(NodeStatus.FAILED);
        assertThat(run.node("b").readyAt()).isNull();
        assertThat(status(run, "c")).isEqualTo(NodeStatus.SKIPPED);
        assertThat(run.run().status()).isEqualTo(WorkflowRunStatus.FAILED);
    }

    @Test
    void aRetryRunsTheFailedAndCancelledNodesAgainUnderTheSameRun() {
        RunProgress run = started(OnFailure.FAIL_FAST, "a", "b", "c:a", "d:b");
        run.jobEnded("b", JobStatus.COMPLETED, NOW);
        run = reread(run);
        run.jobEnded("a", JobStatus.FAILED, NOW);
        assertThat(run.run().status()).isEqualTo(WorkflowRunStatus.FAILED);
        // d, ready in the change that completed b, had its job asked for; c never had one.
        assertThat(status(run, "d")).isEqualTo(NodeStatus.CANCELLED);
        long ended = run.nextVersion();
        run = reread(run);

        Instant later = NOW.plusSeconds(60);
        assertThat(run.jobsOfUnfinishedNodes()).containsExactly(JobIds.forNode(RUN, "a"), JobIds.forNode(RUN, "d"));
        assertThat(run.retry(ended, Map.of(JobIds.forNode(RUN, "a"), JobStatus.FAILED,
                JobIds.forNode(RUN, "d"), JobStatus.CANCELLED), later)).isEqualTo(RunProgress.Retry.RETRIED);

        assertThat(run.run().status()).isEqualTo(WorkflowRunStatus.RUNNING);
        assertThat(run.run().finishedAt()).isNull();
        assertThat(run.run().runId()).isEqualTo(RUN);
        assertThat(status(run, "a")).isEqualTo(NodeStatus.PENDING);
        assertThat(run.node("a").readyAt()).as("its job was asked for at the start").isEqualTo(NOW);
        assertThat(status(run, "b")).isEqualTo(NodeStatus.COMPLETED);
        assertThat(status(run, "c")).isEqualTo(NodeStatus.WAITING);
        assertThat(status(run, "d")).isEqualTo(NodeStatus.PENDING);
        assertThat(run.jobsToRequeue()).containsExactly(JobIds.forNode(RUN, "a"), JobIds.forNode(RUN, "d"));
        assertThat(ready(run)).as("nodes with a job are requeued, not made again").isEmpty();
        assertThat(run.changed()).isTrue();

        run = reread(run);
        run.jobEnded("a", JobStatus.COMPLETED, later);
        assertThat(ready(run)).containsExactly("c");
        run = reread(run);
        run.jobEnded("c", JobStatus.COMPLETED, later);
        run.jobEnded("d", JobStatus.COMPLETED, later);
        assertThat(run.run().status()).isEqualTo(WorkflowRunStatus.COMPLETED);
    }

    @Test
    void aRetryMakesReadyTheNodesThatNeverHadAJobAndUnskipsTheirDependents() {
        RunProgress run = started(OnFailure.CONTINUE, "a", "b:a", "c:b", "d");
        run.jobEnded("d", JobStatus.COMPLETED, NOW);
        run = reread(run);
        run.jobEnded("a", JobStatus.COMPLETED, NOW);
        run = reread(run);
        run.jobEnded("b", JobStatus.FAILED, NOW);
        assertThat(status(run, "c")).isEqualTo(NodeStatus.SKIPPED);
        assertThat(run.run().status()).isEqualTo(WorkflowRunStatus.FAILED);
        long ended = run.nextVersion();
        run = reread(run);

        assertThat(run.retry(ended, Map.of(), NOW)).isEqualTo(RunProgress.Retry.RETRIED);
        assertThat(status(run, "b")).isEqualTo(NodeStatus.PENDING);
        assertThat(status(run, "c")).isEqualTo(NodeStatus.WAITING);
        assertThat(run.jobsToRequeue()).containsExactly(JobIds.forNode(RUN, "b"));

        // A cancelled run whose waiting nodes were cancelled before their jobs: they are made ready again.
        RunProgress cancelled = started(OnFailure.FAIL_FAST, "x", "y:x");
        cancelled.cancel(NOW);
        long at = cancelled.nextVersion();
        cancelled = reread(cancelled);
        assertThat(cancelled.retry(at, Map.of(), NOW)).isEqualTo(RunProgress.Retry.RETRIED);
        assertThat(status(cancelled, "x")).isEqualTo(NodeStatus.PENDING);
        assertThat(status(cancelled, "y")).isEqualTo(NodeStatus.WAITING);
        assertThat(cancelled.jobsToRequeue()).containsExactly(JobIds.forNode(RUN, "x"));
    }

    @Test
    void aRetryTakesTheResultOfANodeWhoseJobCompletedDespiteItsCancel() {
        RunProgress run = started(OnFailure.FAIL_FAST, "a", "b");
        run.cancel(NOW);
        long ended = run.nextVersion();
        run = reread(run);

        run.retry(ended, Map.of(JobIds.forNode(RUN, "a"), JobStatus.COMPLETED), NOW);
        assertThat(status(run, "a")).isEqualTo(NodeStatus.COMPLETED);
        assertThat(status(run, "b")).isEqualTo(NodeStatus.PENDING);
        assertThat(run.jobsToRequeue()).containsExactly(JobIds.forNode(RUN, "b"));

        // every node's job had completed: the retried run ends at once
        RunProgress late = started(OnFailure.FAIL_FAST, "a");
        late.cancel(NOW);
        long at = late.nextVersion();
        late = reread(late);
        late.retry(at, Map.of(JobIds.forNode(RUN, "a"), JobStatus.COMPLETED), NOW);
        assertThat(late.run().status()).isEqualTo(WorkflowRunStatus.COMPLETED);
        assertThat(late.jobsToRequeue()).isEmpty();
    }

    @Test
    void aRetryOfARunNotEndedFailedOrCancelledOrOfAnotherEndChangesNothing() {
        RunProgress running = started(OnFailure.FAIL_FAST, "a");
        assertThat(running.retry(running.run().progressVersion(), Map.of(), NOW))
                .isEqualTo(RunProgress.Retry.NOT_RETRYABLE);
        assertThat(running.changed()).isFalse();

        RunProgress completed = started(OnFailure.FAIL_FAST, "a");
        completed.jobEnded("a", JobStatus.COMPLETED, NOW);
        long at = completed.nextVersion();
        completed = reread(completed);
        assertThat(completed.retry(at, Map.of(), NOW)).isEqualTo(RunProgress.Retry.NOT_RETRYABLE);
        assertThat(completed.changed()).isFalse();

        RunProgress failed = started(OnFailure.FAIL_FAST, "a");
        failed.jobEnded("a", JobStatus.FAILED, NOW);
        long end = failed.nextVersion();
        failed = reread(failed);
        assertThat(failed.retry(end - 1, Map.of(), NOW)).as("an older end, a retry delivered again")
                .isEqualTo(RunProgress.Retry.STALE);
        assertThat(failed.changed()).isFalse();
        assertThat(failed.run().status()).isEqualTo(WorkflowRunStatus.FAILED);
    }

    @Test
    void aRequeuedNodeResumesItsEndedRunAndUnskipsOnlyDependentsWithNoOtherFailure() {
        RunProgress run = started(OnFailure.CONTINUE, "a", "b", "c:a", "d:a,b", "e:c");
        run.jobEnded("a", JobStatus.FAILED, NOW);
        run = reread(run);
        run.jobEnded("b", JobStatus.FAILED, NOW);
        assertThat(run.run().status()).isEqualTo(WorkflowRunStatus.FAILED);
        run.nextVersion();
        run = reread(run);

        Instant later = NOW.plusSeconds(5);
        assertThat(run.nodeRequeued("a", later)).isTrue();
        assertThat(status(run, "a")).isEqualTo(NodeStatus.PENDING);
        assertThat(run.node("a").readyAt()).isEqualTo(NOW);
        assertThat(status(run, "b")).as("another node's failure stays").isEqualTo(NodeStatus.FAILED);
        assertThat(status(run, "c")).isEqualTo(NodeStatus.WAITING);
        assertThat(status(run, "e")).as("the fixpoint reaches dependents of dependents").isEqualTo(NodeStatus.WAITING);
        assertThat(status(run, "d")).as("b failed too").isEqualTo(NodeStatus.SKIPPED);
        assertThat(run.run().status()).isEqualTo(WorkflowRunStatus.RUNNING);
        assertThat(run.run().finishedAt()).isNull();
        assertThat(run.jobsToRequeue()).as("the caller requeued it already").isEmpty();

        run = reread(run);
        run.jobEnded("a", JobStatus.COMPLETED, later);
        assertThat(ready(run)).containsExactly("c");
        run = reread(run);
        run.jobEnded("c", JobStatus.COMPLETED, later);
        run = reread(run);
        run.jobEnded("e", JobStatus.COMPLETED, later);
        assertThat(run.run().status()).as("b failed still").isEqualTo(WorkflowRunStatus.FAILED);
    }

    @Test
    void aRequeuedNodeThatWaitsForItsJobAlreadyChangesNothing() {
        RunProgress run = started(OnFailure.FAIL_FAST, "a");
        run.jobEnded("a", JobStatus.FAILED, NOW);
        long ended = run.nextVersion();
        run = reread(run);
        run.retry(ended, Map.of(), NOW);
        run = reread(run);

        assertThat(run.nodeRequeued("a", NOW)).as("its run's retry made it wait already").isFalse();
        assertThat(run.nodeRequeued("unknown", NOW)).isFalse();
        assertThat(run.changed()).isFalse();
    }

    /** A run of {@code nodes}, started, as the next transaction reads it. */
    private static RunProgress started(OnFailure onFailure, String... nodes) {
        RunProgress run = TestRuns.run(RUN, NOW, onFailure, nodes);
        run.start(NOW);
        return reread(run);
    }

    /** The run as the next transaction reads it. */
    private static RunProgress reread(RunProgress progress) {
        return new RunProgress(progress.run(), progress.nodes());
    }

    private static List<String> ready(RunProgress run) {
        return run.ready().stream().map(RunNode::nodeId).toList();
    }

    private static NodeStatus status(RunProgress run, String nodeId) {
        return run.node(nodeId).status();
    }
}
