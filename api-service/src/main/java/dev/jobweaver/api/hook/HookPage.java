package dev.jobweaver.api.hook;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/**
 * One page of {@code GET /api/hooks}, newest first.
 *
 * @param page 0-based page number
 * @param totalElements hooks matching the filter
 * @param totalPages pages of {@code size} needed for them
 */
@RegisterForReflection
public record HookPage(List<HookView> hooks, int page, int size, long totalElements, int totalPages) {
}
