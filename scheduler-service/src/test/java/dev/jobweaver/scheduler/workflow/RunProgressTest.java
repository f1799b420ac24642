package dev.jobweaver.scheduler.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.job.JobIds;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.workflow.NodeStatus;
import dev.jobweaver.common.workflow.OnFailure;
import dev.jobweaver.common.workflow.WorkflowRunStatus;
import java.time.Instant;
import java.util.List;
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
