package dev.jobweaver.api.workflow;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/**
 * One page of {@code GET /api/workflows/{id}/runs}, newest first.
 *
 * @param page 0-based page number
 * @param totalElements the workflow's runs
 * @param totalPages pages of {@code size} needed for them
 */
@RegisterForReflection
public record WorkflowRunPage(List<WorkflowRunView> runs, int page, int size, long totalElements, int totalPages) {
}
