package dev.jobweaver.api.quarantine;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/**
 * One page of {@code GET /api/quarantine}, newest first.
 *
 * @param page 0-based page number
 * @param totalElements records matching the filter
 * @param totalPages pages of {@code size} needed for them
 */
@RegisterForReflection
public record QuarantinePage(List<QuarantinedRecordView> records, int page, int size, long totalElements,
                             int totalPages) {
}
