package dev.jobweaver.api.workflow;

import dev.jobweaver.common.workflow.WorkflowRunStatus;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.UUID;

/**
 * The answer to {@code POST /api/workflows/{id}/runs}: the run, and its trace, of which every node's job is a part.
 *
 * @param version the workflow's version the run keeps
 */
@RegisterForReflection
public record RunStarted(UUID runId, String traceId, UUID workflowId, int version, WorkflowRunStatus status) {
}
