package dev.jobweaver.api.schedule;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/**
 * One page of {@code GET /api/schedules}, newest first.
 *
 * @param page 0-based page number
 * @param totalElements schedules matching the filter
 * @param totalPages pages of {@code size} needed for them
 */
@RegisterForReflection
public record SchedulePage(List<ScheduleView> schedules, int page, int size, long totalElements, int totalPages) {
}
