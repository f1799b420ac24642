package dev.jobweaver.api.security;

import dev.jobweaver.api.platform.http.ApiException;
import dev.jobweaver.api.platform.http.BodyErrors;
import dev.jobweaver.api.platform.http.BodyLimit;
import dev.jobweaver.api.platform.http.PageQuery;
import dev.jobweaver.api.platform.http.RestSupport;
import dev.jobweaver.api.platform.http.StrictJson;
import dev.jobweaver.api.platform.http.ApiErrorCode;
import io.quarkus.resteasy.reactive.jackson.CustomDeserialization;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * {@code /api/tenants/{tenant}/api-keys}: a tenant's API keys, for {@code Authorization: Bearer jw_...}. Admins only
 * (an admin sees every tenant); anyone else is answered 403. The key is shown once, in the answer to its creation.
 */
@Path("/api/tenants/{tenant}/api-keys")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "security")
@RolesAllowed(Roles.ADMIN)
// on the class, so every operation lists them, as every one is the admin's only
@APIResponse(responseCode = "401", description = "no valid credentials (API.UNAUTHENTICATED)")
@APIResponse(responseCode = "403", description = "the caller is not an admin (API.FORBIDDEN)")
public class ApiKeyResource {

    @Inject ApiKeyService keys;
    @Inject RestSupport rest;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Create an API key", description = "A name (1..100 characters), the roles it grants (viewer,"
            + " submitter, operator, admin; each implies the lower ones) and optionally expiresAt (ISO-8601, in the"
            + " future; without it the key never expires). The answer carries the key, this once: only its hash is"
            + " stored. Use it as Authorization: Bearer jw_...")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = ApiKeyRequest.class)))
    @APIResponse(responseCode = "201", description = "created; the key is shown this once",
            headers = @Header(name = "Location", description = "/api/tenants/{tenant}/api-keys/{id}"),
            content = @Content(schema = @Schema(implementation = ApiKeyView.class)))
    @APIResponse(responseCode = "400", description = "invalid tenant or body; the message names the field"
            + " (API.INVALID_API_KEY_REQUEST, or API.MALFORMED_JSON for a body that is not JSON or a wrong type)")
    @CustomDeserialization(StrictJson.class)
    @BodyLimit
    public Uni<RestResponse<ApiKeyView>> create(@Parameter(description = "the tenant", schema = @Schema(
            type = SchemaType.STRING, pattern = "[a-z0-9][a-z0-9-]{0,62}")) @PathParam("tenant") String tenant,
                                                @Valid ApiKeyRequest request) {
        String checked = tenant(tenant);
        if (request == null) {
            throw rest.refused(BodyErrors.empty(ApiKeyRequest.class));
        }
        return rest.unavailableOnOutage(keys.create(checked, request.name(), request.roleSet(), request.expiry()),
                        "the API key could not be stored")
                .map(created -> RestResponse.ResponseBuilder.create(RestResponse.Status.CREATED,
                                ApiKeyView.withKey(created.stored(), created.key()))
                        .header(HttpHeaders.LOCATION, "/api/tenants/" + checked + "/api-keys/" + created.stored().id())
                        .build());
    }

    @GET
    @Operation(summary = "List a tenant's API keys", description = "Newest first, revoked ones included; never the"
            + " keys, only their prefixes.")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = ApiKeyPage.class)))
    @APIResponse(responseCode = "400", description = "the tenant or a paging parameter is not valid"
            + " (API.INVALID_API_KEY_REQUEST, API.INVALID_PARAMETER)")
    public Uni<ApiKeyPage> list(
            @Parameter(description = "the tenant", schema = @Schema(type = SchemaType.STRING,
                    pattern = "[a-z0-9][a-z0-9-]{0,62}")) @PathParam("tenant") String tenant,
            @BeanParam PageQuery pages) {
        String checked = tenant(tenant);
        RestSupport.Paging paging = rest.paging(pages);
        return rest.unavailableOnOutage(keys.list(checked, paging.page(), paging.size()),
                        "the API keys could not be read")
                .map(slice -> paging.of(slice, ApiKeyView::of, ApiKeyPage::new));
    }

    @DELETE
    @Path("{id}")
    @Operation(summary = "Revoke an API key", description = "204 once the revocation is committed. This replica refuses"
            + " the key at once; the others within their key cache's period (5 s by default). Revoking a revoked key"
            + " changes nothing and answers 204.")
    @APIResponse(responseCode = "204", description = "revoked")
    @APIResponse(responseCode = "400", description = "the tenant or the id is not valid"
            + " (API.INVALID_API_KEY_REQUEST, API.INVALID_PARAMETER)")
    public Uni<RestResponse<Void>> revoke(
            @Parameter(description = "the tenant", schema = @Schema(type = SchemaType.STRING,
                    pattern = "[a-z0-9][a-z0-9-]{0,62}")) @PathParam("tenant") String tenant,
            @Parameter(description = "the key's UUID") @PathParam("id") String id) {
        String checked = tenant(tenant);
        UUID keyId = rest.uuid("id", id);
        return rest.unavailableOnOutage(keys.revoke(checked, keyId), "the API key could not be revoked")
                .map(revoked -> RestSupport.noContent(revoked, () -> new ApiException(
                        ApiErrorCode.API_KEY_NOT_FOUND, "tenant " + checked + " has no API key with id " + keyId)));
    }

    /** The path's tenant; 400 when it breaks the tenant rule. */
    private String tenant(String value) {
        return rest.tenantPath(value, ApiErrorCode.INVALID_API_KEY_REQUEST);
    }
}
