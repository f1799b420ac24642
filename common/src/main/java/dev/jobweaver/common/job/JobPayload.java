package dev.jobweaver.common.job;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/** What a job does: its steps, run in order. Stored as the {@code instruction} jsonb column by every service. */
@RegisterForReflection
public record JobPayload(List<Step> steps) {
}
