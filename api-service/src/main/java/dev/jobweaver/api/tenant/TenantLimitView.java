package dev.jobweaver.api.tenant;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A tenant's concurrency limit as the API answers it. */
@Schema(name = "TenantLimit")
@RegisterForReflection
public record TenantLimitView(
        @Schema(description = "the tenant", example = "acme") String tenant,
        @Schema(description = "at most this many of the tenant's jobs run at once (1..100000)", example = "10")
        int maxRunning,
        @Schema(description = "when the limit was last set") Instant updatedAt) {

    static TenantLimitView of(StoredTenantLimit stored) {
        return new TenantLimitView(stored.tenant(), stored.maxRunning(), stored.updatedAt());
    }
}
