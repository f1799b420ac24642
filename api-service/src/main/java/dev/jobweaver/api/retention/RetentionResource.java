package dev.jobweaver.api.retention;

import dev.jobweaver.api.platform.http.ApiErrorCode;
import dev.jobweaver.api.platform.http.ApiException;
import dev.jobweaver.api.platform.http.BodyErrors;
import dev.jobweaver.api.platform.http.RestSupport;
import dev.jobweaver.api.platform.http.StrictJson;
import dev.jobweaver.api.security.Roles;
import io.quarkus.resteasy.reactive.jackson.CustomDeserialization;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Duration;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * {@code /api/tenants/{tenant}/retention}: how long a tenant's finished jobs and workflow runs are kept. The API stores
 * the override; its purge ({@link RetentionPurge}) removes what has passed it, from every service's store.
 */
@Path("/api/tenants/{tenant}/retention")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "tenants")
public class RetentionResource {

    @Inject RetentionService retentions;
    @Inject RetentionConfig config;
    @Inject RestSupport rest;

    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Set a tenant's retention", description = "completedAfter and failedAfter are ISO-8601"
            + " durations from PT10S to P3650D; a field left out is the configured default (P7D and P30D unless"
            + " configured otherwise). A finished job is removed from every service within about a minute after its"
            + " retention ends; the change applies from the purge's next round.")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = RetentionRequest.class)))
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = RetentionView.class)))
    @APIResponse(responseCode = "400", description = "invalid tenant or body; the message names the field"
            + " (API.INVALID_RETENTION_REQUEST, or API.MALFORMED_JSON for a body that is not JSON or a wrong type)")
    @RolesAllowed(Roles.ADMIN)
    @CustomDeserialization(StrictJson.class)
    public Uni<RetentionView> set(@Parameter(description = "the tenant", schema = @Schema(type = SchemaType.STRING,
            pattern = "[a-z0-9][a-z0-9-]{0,62}")) @PathParam("tenant") String tenant, @Valid RetentionRequest body) {
        String checked = tenant(tenant);
        if (body == null) {
            throw rest.refused(BodyErrors.empty(RetentionRequest.class));
        }
        Duration completed = period("completedAfter", body.completedAfter());
        Duration failed = period("failedAfter", body.failedAfter());
        // Two first PUTs of one tenant at once: the one that loses the insert finds the row when it tries again.
        Uni<TenantRetention> set = Uni.createFrom().deferred(() -> retentions.set(checked, completed, failed))
                .onFailure().retry().atMost(1);
        return rest.unavailableOnOutage(set, "the retention could not be stored")
                .map(row -> RetentionView.of(checked, row, config));
    }

    @GET
    @Operation(summary = "Read a tenant's retention", description = "The periods in force: the tenant's own, or the"
            + " configured defaults where it set none (also for a tenant that never set one).")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = RetentionView.class)))
    @APIResponse(responseCode = "400", description = "the tenant is not valid (API.INVALID_RETENTION_REQUEST)")
    @RolesAllowed(Roles.ADMIN)
    public Uni<RetentionView> get(@Parameter(description = "the tenant", schema = @Schema(type = SchemaType.STRING,
            pattern = "[a-z0-9][a-z0-9-]{0,62}")) @PathParam("tenant") String tenant) {
        String checked = tenant(tenant);
        return rest.unavailableOnOutage(retentions.find(checked), "the retention could not be read")
                .map(row -> RetentionView.of(checked, row, config));
    }

    private Duration period(String field, String text) {
        try {
            return RetentionPeriods.parse(field, text);
        } catch (IllegalArgumentException e) {
            throw rest.refused(new ApiException(ApiErrorCode.INVALID_RETENTION_REQUEST, e.getMessage()));
        }
    }

    /** The path's tenant; 400 when it breaks the tenant rule. */
    private String tenant(String value) {
        return rest.tenantPath(value, ApiErrorCode.INVALID_RETENTION_REQUEST);
    }
}
