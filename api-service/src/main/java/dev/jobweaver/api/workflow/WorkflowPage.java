package dev.jobweaver.api.workflow;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/**
 * One page of {@code GET /api/workflows}, newest first, each at its latest version.
 *
 * @param page 0-based page number
 * @param totalElements workflows matching the filter
 * @param totalPages pages of {@code size} needed for them
 */
@RegisterForReflection
public record WorkflowPage(List<WorkflowView> workflows, int page, int size, long totalElements, int totalPages) {
}
