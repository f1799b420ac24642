package dev.jobweaver.api.tenant;

import dev.jobweaver.api.platform.http.ApiException;
import dev.jobweaver.api.platform.http.BodyErrors;
import dev.jobweaver.api.platform.http.RestSupport;
import dev.jobweaver.api.platform.http.StrictJson;
import dev.jobweaver.api.platform.http.ApiErrorCode;
import dev.jobweaver.api.security.Roles;
import io.quarkus.resteasy.reactive.jackson.CustomDeserialization;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * {@code /api/tenants/{tenant}/limits}: a tenant's concurrency limit. The API stores it; the scheduler, which learns it
 * on {@code tenant-limits}, dispatches at most that many of the tenant's jobs at once and keeps the others PENDING.
 */
@Path("/api/tenants/{tenant}/limits")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "tenants")
public class TenantLimitResource {

    @Inject TenantLimitService limits;
    @Inject RestSupport rest;

    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Set a tenant's concurrency limit", description = "At most maxRunning (1..100000) of the"
            + " tenant's jobs run at once; the others wait PENDING. Answers 200 once stored; the scheduler learns the"
            + " limit through Kafka right after. A lower limit stops no running job: new ones wait until the tenant is"
            + " under it.")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = TenantLimitRequest.class)))
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = TenantLimitView.class)))
    @APIResponse(responseCode = "400", description = "invalid tenant or body; the message names the field"
            + " (API.INVALID_TENANT_LIMIT_REQUEST, or API.MALFORMED_JSON for a body that is not JSON or a wrong type)")
    @RolesAllowed(Roles.ADMIN)
    @CustomDeserialization(StrictJson.class)
    public Uni<TenantLimitView> set(@Parameter(description = "the tenant", schema = @Schema(type = SchemaType.STRING,
            pattern = "[a-z0-9][a-z0-9-]{0,62}")) @PathParam("tenant") String tenant, @Valid TenantLimitRequest body) {
        String checked = tenant(tenant);
        if (body == null) {
            throw rest.refused(BodyErrors.empty(TenantLimitRequest.class));
        }
        // in range once valid
        int maxRunning = body.maxRunning().intValueExact();
        return rest.unavailableOnOutage(limits.set(checked, maxRunning), "the tenant limit could not be stored")
                .map(TenantLimitView::of);
    }

    @GET
    @Operation(summary = "Read a tenant's concurrency limit")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = TenantLimitView.class)))
    @APIResponse(responseCode = "400", description = "the tenant is not valid (API.INVALID_TENANT_LIMIT_REQUEST)")
    @APIResponse(responseCode = "404", description = "the tenant has no limit (API.TENANT_LIMIT_NOT_FOUND)")
    @RolesAllowed(Roles.ADMIN)
    public Uni<TenantLimitView> get(@Parameter(description = "the tenant", schema = @Schema(type = SchemaType.STRING,
            pattern = "[a-z0-9][a-z0-9-]{0,62}")) @PathParam("tenant") String tenant) {
        String checked = tenant(tenant);
        return rest.unavailableOnOutage(limits.find(checked), "the tenant limit could not be read")
                .map(found -> TenantLimitView.of(RestSupport.found(found, () -> new ApiException(
                        ApiErrorCode.TENANT_LIMIT_NOT_FOUND, "tenant " + checked + " has no limit"))));
    }

    @DELETE
    @Operation(summary = "Remove a tenant's concurrency limit", description = "204 once the removal is stored, also"
            + " when the tenant had no limit; the scheduler learns it through Kafka right after and dispatches the"
            + " tenant's waiting jobs.")
    @APIResponse(responseCode = "204", description = "the tenant has no limit")
    @APIResponse(responseCode = "400", description = "the tenant is not valid (API.INVALID_TENANT_LIMIT_REQUEST)")
    @RolesAllowed(Roles.ADMIN)
    public Uni<RestResponse<Void>> delete(@Parameter(description = "the tenant", schema = @Schema(
            type = SchemaType.STRING, pattern = "[a-z0-9][a-z0-9-]{0,62}")) @PathParam("tenant") String tenant) {
        String checked = tenant(tenant);
        return rest.unavailableOnOutage(limits.remove(checked), "the tenant limit could not be removed")
                .map(removed -> RestResponse.<Void>noContent());
    }

    /** The path's tenant; 400 when it breaks the tenant rule. */
    private String tenant(String value) {
        return rest.tenantPath(value, ApiErrorCode.INVALID_TENANT_LIMIT_REQUEST);
    }
}
