package dev.jobweaver.api.stats;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Typed configuration of {@code GET /api/stats/overview} ({@code jobweaver.api.stats.*}). */
@ConfigMapping(prefix = "jobweaver.api.stats")
public interface StatsConfig {

    /**
     * Up to this many jobs of one status are counted exactly (an index-only scan of {@code jobs_status_created_at_idx}
     * that stops there); beyond it the count is the planner's estimate, and the status is listed as estimated.
     */
    @WithDefault("10000")
    int exactCountLimit();

    /**
     * The series look at the jobs created this long before the window begins, as well as the jobs created in it and
     * every job not finished yet: a job created earlier than that which finished in the window is not in its
     * throughput.
     */
    @WithDefault("1h")
    Duration lookback();
}
