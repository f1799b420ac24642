package dev.jobweaver.api.workflow;

import dev.jobweaver.common.workflow.OnFailure;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * One version of a workflow as stored, detached from its entities.
 *
 * @param version the version shown
 * @param latestVersion the workflow's latest version, the one a new run starts with
 * @param triggers the workflow's event types, as its latest version named them (whichever version is shown): they
 *                 belong to the workflow, not to a version
 */
public record StoredWorkflow(UUID id, String name, String tenant, int version, int latestVersion,
                             List<WorkflowDefinition.Node> nodes, Integer maxConcurrency, OnFailure onFailure,
                             Instant createdAt, Instant updatedAt, List<String> triggers) {

    /** {@code version} of {@code workflow}. */
    static StoredWorkflow of(Workflow workflow, WorkflowVersion version) {
        return new StoredWorkflow(workflow.id, version.name, workflow.tenant, version.version, workflow.latestVersion,
                WorkflowJson.nodes(version.nodes), version.maxConcurrency, version.onFailure, workflow.createdAt,
                workflow.updatedAt, workflow.triggers == null ? List.of() : List.of(workflow.triggers));
    }
}
