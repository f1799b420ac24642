package dev.jobweaver.api.stats;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What {@code GET /api/stats/overview} answers.
 *
 * @param minutes the window's length; {@code series} has one entry per minute, the current (partial) minute last
 * @param tenant the tenant counted, or null for every tenant
 * @param counts jobs per status now: PENDING, RUNNING, COMPLETED, FAILED, CANCELLED
 * @param estimated the statuses whose count is the planner's estimate (more jobs than the exact-count limit)
 * @param series per minute: jobs completed and failed in it, and jobs pending and running at its end
 */
@RegisterForReflection
public record Overview(Instant at, int minutes, String tenant, Map<String, Long> counts, List<String> estimated,
                       List<MinuteView> series) {

    /** One minute of the window. */
    @RegisterForReflection
    public record MinuteView(Instant minute, long completed, long failed, long pending, long running) {
    }
}
