package dev.jobweaver.api.job;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/**
 * One page of {@code GET /api/jobs}, newest first.
 *
 * @param page 0-based page number
 * @param totalElements jobs matching the filters
 * @param totalPages pages of {@code size} needed for them
 */
@RegisterForReflection
public record JobPage(List<JobView> jobs, int page, int size, long totalElements, int totalPages) {
}
