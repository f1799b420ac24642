package dev.jobweaver.api.dashboard;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Typed configuration of the dashboard at {@code /dashboard} ({@code jobweaver.api.dashboard.*}). */
@ConfigMapping(prefix = "jobweaver.api.dashboard")
public interface DashboardConfig {

    /** Where a job's trace is shown: {@code {traceId}} is replaced by the job's trace id. */
    @WithDefault("http://localhost:9411/zipkin/traces/{traceId}")
    String traceUrl();

    /** How often the dashboard's pages read the API again while the tab is visible. */
    @WithDefault("3s")
    Duration pollInterval();
}
