package dev.jobweaver.scheduler.workflow;

import dev.jobweaver.common.workflow.NodeStatus;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * One row of {@code workflow_run_nodes}: a node of a run. Immutable; a change makes a new one.
 *
 * @param ord the node's place in the run's graph
 * @param jobId {@code JobIds.forNode(runId, nodeId)}, known from the start
 * @param readyAt when its job was asked for (its dependencies all completed); null before
 */
record RunNode(String nodeId, int ord, List<String> dependsOn, NodeStatus status, UUID jobId,
                      Instant readyAt) {

    /** This node with another status and readiness. */
    public RunNode with(NodeStatus next, Instant nextReadyAt) {
        return new RunNode(nodeId, ord, dependsOn, next, jobId, nextReadyAt);
    }
}
