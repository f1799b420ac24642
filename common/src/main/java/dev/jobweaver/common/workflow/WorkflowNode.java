package dev.jobweaver.common.workflow;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/**
 * One node of a workflow's graph, as the scheduler needs it: its id and the ids of the nodes whose completion it
 * waits for. The node's job (a submission body) stays with the API, which makes the job.
 *
 * @param dependsOn never null; empty for a root
 */
@RegisterForReflection
public record WorkflowNode(String id, List<String> dependsOn) {

    public WorkflowNode {
        dependsOn = dependsOn == null ? List.of() : List.copyOf(dependsOn);
    }
}
