package dev.jobweaver.api.dashboard;

import dev.jobweaver.api.security.Roles;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** {@code /api/dashboard/config}: the settings the dashboard's page reads once as it loads. */
@Path("/api/dashboard/config")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "dashboard")
public class DashboardResource {

    /**
     * @param traceUrl where a job's trace is shown, {@code {traceId}} standing for its trace id
     * @param pollIntervalMs how often the pages read the API again while visible
     */
    @RegisterForReflection
    public record Settings(String traceUrl, long pollIntervalMs) {
    }

    private final Settings settings;

    public DashboardResource(DashboardConfig config) {
        this.settings = new Settings(config.traceUrl(), config.pollInterval().toMillis());
    }

    @GET
    @Operation(summary = "The dashboard's settings", description = "The trace URL template and the polling interval.")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = Settings.class)))
    @RolesAllowed(Roles.VIEWER)
    public Settings config() {
        return settings;
    }
}
