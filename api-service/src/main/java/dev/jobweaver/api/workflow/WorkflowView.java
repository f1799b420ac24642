package dev.jobweaver.api.workflow;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.common.workflow.OnFailure;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A workflow as {@code GET /api/workflows/{id}} shows it: one version's graph.
 *
 * @param version the version shown
 * @param latestVersion the version a new run starts with
 * @param maxConcurrency at most this many of its node jobs run at once, over all its runs; absent for no limit
 * @param triggers the application event types that start a run; empty for none
 */
@RegisterForReflection
public record WorkflowView(UUID id, String name, String tenant, int version, int latestVersion, List<Node> nodes,
                           @JsonInclude(JsonInclude.Include.NON_NULL) Integer maxConcurrency, OnFailure onFailure,
                           @Schema(description = "the application events (POST /api/events) each of which starts a"
                                   + " run; the workflow's, whichever version is shown")
                           List<WorkflowRequest.Trigger> triggers,
                           Instant createdAt, Instant updatedAt) {

    /**
     * A node: its job as stored (a submission body, normalised: its retries and tenant explicit) and the nodes it waits
     * for.
     */
    @RegisterForReflection
    public record Node(String id,
                       @Schema(type = SchemaType.OBJECT, description = "a POST /api/jobs body") JsonNode job,
                       List<String> dependsOn) {
    }

    static WorkflowView of(StoredWorkflow workflow) {
        return new WorkflowView(workflow.id(), workflow.name(), workflow.tenant(), workflow.version(),
                workflow.latestVersion(), workflow.nodes().stream()
                        .map(node -> new Node(node.id(), node.job(), node.dependsOn())).toList(),
                workflow.maxConcurrency(), workflow.onFailure(),
                workflow.triggers().stream().map(WorkflowRequest.Trigger::new).toList(), workflow.createdAt(),
                workflow.updatedAt());
    }
}
