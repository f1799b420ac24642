package dev.jobweaver.api.audit;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/**
 * One page of {@code GET /api/audit}, newest first.
 *
 * @param page 0-based page number
 * @param totalElements entries matching the filter
 * @param totalPages pages of {@code size} needed for them
 */
@RegisterForReflection
public record AuditPage(List<AuditView> entries, int page, int size, long totalElements, int totalPages) {
}
