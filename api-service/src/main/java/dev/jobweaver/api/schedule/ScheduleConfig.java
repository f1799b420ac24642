package dev.jobweaver.api.schedule;

import dev.jobweaver.api.outbox.RepublishConfig;
import io.smallrye.config.ConfigMapping;

/** Typed configuration of recurring schedules ({@code jobweaver.api.schedules.*}): how their republisher runs. */
@ConfigMapping(prefix = "jobweaver.api.schedules")
public interface ScheduleConfig extends RepublishConfig {
}
