package dev.jobweaver.scheduler.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.jobweaver.common.event.WorkflowProgressEvent.ReadyNode;
import dev.jobweaver.common.job.JobIds;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.workflow.NodeStatus;
import dev.jobweaver.common.workflow.OnFailure;
import dev.jobweaver.common.workflow.WorkflowRunStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The results bound of a progress record: ready nodes are spread over records whose results stay within it, and a node
 * whose own dependencies' results exceed it fails instead of getting its job.
 */
class ReadyBatchesTest {

    private static final Instant NOW = Instant.parse("2026-11-26T10:00:00Z");
    private static final UUID RUN = UUID.randomUUID();

    @Test
    void readyNodesAreSpreadOverRecordsWithinTheBound() {
        // root, then four leaves; root's result is 102 bytes of JSON ({"r":"x...x"}), so two leaves fit in 250.
        RunProgress run = TestRuns.run(RUN, NOW, OnFailure.FAIL_FAST, "root", "l1:root", "l2:root", "l3:root",
                "l4:root");
        run.start(NOW);
        run = new RunProgress(run.run(), run.nodes());
        run.jobEnded("root", JobStatus.COMPLETED, NOW);
        Map<UUID, JsonNode> results = Map.of(JobIds.forNode(RUN, "root"),
                JsonNodeFactory.instance.objectNode().put("r", "x".repeat(94)));
        List<String> tooLarge = new ArrayList<>();

        List<List<ReadyNode>> batches = WorkflowOrchestrator.readyBatches(run, results, new HashMap<>(), 250, NOW,
                (node, size) -> tooLarge.add(node));

        assertThat(batches).hasSize(2);
        assertThat(batches).allSatisfy(b -> assertThat(b).hasSize(2));
        assertThat(batches.getFirst().getFirst().results().get("root").get("r").asText()).hasSize(94);
        assertThat(tooLarge).isEmpty();
    }

    @Test
    void aNodeWhoseOwnResultsExceedTheBoundFailsAndItsRunHandlesIt() {
        RunProgress run = TestRuns.run(RUN, NOW, OnFailure.CONTINUE, "a", "b", "big:a,b", "small:a", "after:big");
        run.start(NOW);
        run = new RunProgress(run.run(), run.nodes());
        run.jobEnded("a", JobStatus.COMPLETED, NOW);
        run.jobEnded("b", JobStatus.COMPLETED, NOW);
        Map<UUID, JsonNode> results = Map.of(
                JobIds.forNode(RUN, "a"), JsonNodeFactory.instance.textNode("a".repeat(60)),
                JobIds.forNode(RUN, "b"), JsonNodeFactory.instance.textNode("b".repeat(60)));
        List<String> tooLarge = new ArrayList<>();

        List<List<ReadyNode>> batches = WorkflowOrchestrator.readyBatches(run, results, new HashMap<>(), 100, NOW,
                (node, size) -> tooLarge.add(node + "=" + size));

        assertThat(tooLarge).containsExactly("big=124");
        assertThat(batches).hasSize(1);
        assertThat(batches.getFirst()).extracting(ReadyNode::nodeId).containsExactly("small");
        assertThat(run.node("big").status()).isEqualTo(NodeStatus.FAILED);
        assertThat(run.node("after").status()).isEqualTo(NodeStatus.SKIPPED);
    }

    @Test
    void aChangeWithoutReadyNodesIsOneRecordWithNone() {
        RunProgress run = TestRuns.run(RUN, NOW, OnFailure.FAIL_FAST, "a");
        run.start(NOW);
        run = new RunProgress(run.run(), run.nodes());
        run.jobEnded("a", JobStatus.COMPLETED, NOW);

        List<List<ReadyNode>> batches = WorkflowOrchestrator.readyBatches(run, Map.of(), new HashMap<>(), 100, NOW,
                (node, size) -> { });

        assertThat(batches).containsExactly(List.of());
        assertThat(run.run().status()).isEqualTo(WorkflowRunStatus.COMPLETED);
    }
}
