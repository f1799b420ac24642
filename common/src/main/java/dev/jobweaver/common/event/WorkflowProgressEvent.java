package dev.jobweaver.common.event;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.common.workflow.NodeStatus;
import dev.jobweaver.common.workflow.WorkflowRunStatus;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Scheduler to API ({@code workflow-progress}, keyed by runId): a run changed. It carries the run's whole state,
 * so the API keeps the event of the highest {@code version} and ignores older ones; and the nodes that became ready
 * in that change, whose jobs the API makes.
 *
 * <p>The scheduler publishes it, and waits for Kafka's acknowledgement, inside the transaction that changed the run
 * (the one that recorded a node's outcome), so a change is never committed unreported. A crash before that commit
 * publishes it again: each ready node names its job by {@code JobIds.forNode(runId, nodeId)}, and the API stores
 * jobs idempotently by id, so a node never becomes two jobs.
 *
 * @param version per run, strictly increasing
 * @param nodes every node of the run with its status and, once it has one, its job
 * @param ready the nodes whose jobs the API makes now, each with its dependencies' results
 * @param finishedAt when the run ended; null while it runs
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record WorkflowProgressEvent(
        UUID runId,
        UUID workflowId,
        long version,
        WorkflowRunStatus status,
        List<Node> nodes,
        List<ReadyNode> ready,
        Instant changedAt,
        Instant finishedAt) {

    /** A node's state; {@code jobId} is null while it waits, and for a node skipped or cancelled before its job. */
    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Node(String id, NodeStatus status, UUID jobId) {
    }

    /**
     * A node whose dependencies all completed: make job {@code jobId} from the node's job of the run's version, with
     * the run's input and these results.
     *
     * @param results each dependency's result by node id (a JSON null for a dependency that reported none)
     */
    @RegisterForReflection
    public record ReadyNode(String nodeId, UUID jobId, Map<String, JsonNode> results) {
    }
}
