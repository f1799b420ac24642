package dev.jobweaver.api.retention;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Duration;
import java.time.Instant;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A tenant's retention as the API answers it: the periods in force, and which of them are the defaults. */
@Schema(name = "Retention")
@RegisterForReflection
public record RetentionView(
        @Schema(description = "the tenant", example = "acme") String tenant,
        @Schema(description = "how long COMPLETED jobs and runs are kept after they finished (ISO-8601)",
                example = "PT1M") String completedAfter,
        @Schema(description = "how long FAILED, CANCELLED and REJECTED jobs (with their dead letters) and failed or"
                + " cancelled runs are kept after they finished (ISO-8601)", example = "P30D") String failedAfter,
        @Schema(description = "true when completedAfter is the configured default (the tenant set none)")
        boolean completedAfterDefault,
        @Schema(description = "true when failedAfter is the configured default (the tenant set none)")
        boolean failedAfterDefault,
        @Schema(description = "when the tenant's retention was last set; null when it never was") Instant updatedAt) {

    static RetentionView of(String tenant, TenantRetention row, RetentionConfig defaults) {
        Long completed = row == null ? null : row.completedAfterMs;
        Long failed = row == null ? null : row.failedAfterMs;
        return new RetentionView(tenant,
                RetentionPeriods.format(completed == null ? defaults.completedAfter() : Duration.ofMillis(completed)),
                RetentionPeriods.format(failed == null ? defaults.failedAfter() : Duration.ofMillis(failed)),
                completed == null, failed == null, row == null ? null : row.updatedAt);
    }
}
