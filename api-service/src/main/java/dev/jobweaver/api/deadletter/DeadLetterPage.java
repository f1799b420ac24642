package dev.jobweaver.api.deadletter;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/**
 * One page of {@code GET /api/dead-letters}, newest failure first.
 *
 * @param page 0-based page number
 * @param totalElements dead letters matching the filter
 * @param totalPages pages of {@code size} needed for them
 */
@RegisterForReflection
public record DeadLetterPage(List<DeadLetterView> deadLetters, int page, int size, long totalElements,
                             int totalPages) {
}
