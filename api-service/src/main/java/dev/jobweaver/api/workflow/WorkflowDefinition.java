package dev.jobweaver.api.workflow;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobweaver.common.workflow.OnFailure;
import dev.jobweaver.common.workflow.WorkflowNode;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/**
 * A workflow's definition as a client gave it, validated: what one version holds.
 *
 * @param tenant the tenant every node's job belongs to
 * @param maxConcurrency at most this many of its node jobs run at once, over all its runs; null for no limit
 * @param triggers the application event types each event of which starts a run; never null, each type once
 */
@RegisterForReflection
public record WorkflowDefinition(String name, String tenant, List<Node> nodes, Integer maxConcurrency,
                                 OnFailure onFailure, List<String> triggers) {

    public WorkflowDefinition {
        triggers = triggers == null ? List.of() : List.copyOf(triggers);
    }

    /**
     * One node.
     *
     * @param job its job as a submission body, validated and normalised (its retries and tenant explicit)
     * @param dependsOn never null; empty for a root
     */
    public record Node(String id, ObjectNode job, List<String> dependsOn) {

        public Node {
            dependsOn = dependsOn == null ? List.of() : List.copyOf(dependsOn);
        }
    }

    /** The graph as the scheduler gets it. */
    public List<WorkflowNode> graph() {
        return nodes.stream().map(node -> new WorkflowNode(node.id(), node.dependsOn())).toList();
    }
}
