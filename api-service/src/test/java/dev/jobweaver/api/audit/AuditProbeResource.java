package dev.jobweaver.api.audit;

import dev.jobweaver.api.security.Roles;
import dev.jobweaver.api.platform.http.ApiException;
import dev.jobweaver.api.platform.http.ApiErrorCode;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.PermitAll;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.net.URI;
import java.util.UUID;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * Endpoints of every kind the audit filter tells apart, for its tests only: admin and operator ones that change
 * something (recorded), a viewer one and a public one (not recorded), and a GET of an admin (never recorded). A
 * {@code {id}} of {@code bad} answers 400, as a refused request of a real endpoint would.
 */
@Path("/api/audit-probe/tenants/{tenant}/things")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.ADMIN)
public class AuditProbeResource {

    @POST
    public RestResponse<String> create(@PathParam("tenant") String tenant) {
        String id = UUID.randomUUID().toString();
        return RestResponse.ResponseBuilder.<String>create(RestResponse.Status.CREATED)
                .entity("{\"id\":\"" + id + "\"}")
                .location(URI.create("/api/audit-probe/tenants/" + tenant + "/things/" + id)).build();
    }

    @POST
    @Path("{id: [a-z0-9-]+}/poke")
    public Uni<String> poke(@PathParam("tenant") String tenant, @PathParam("id") String id) {
        return answer(id);
    }

    @GET
    @Path("{id}")
    public Uni<String> read(@PathParam("tenant") String tenant, @PathParam("id") String id) {
        return answer(id);
    }

    @DELETE
    @Path("{id}")
    @RolesAllowed({Roles.OPERATOR, Roles.ADMIN})
    public Uni<RestResponse<Void>> remove(@PathParam("tenant") String tenant, @PathParam("id") String id) {
        return answer(id).map(ignored -> RestResponse.noContent());
    }

    @PUT
    @Path("{id}/viewed")
    @RolesAllowed(Roles.VIEWER)
    public Uni<String> viewed(@PathParam("tenant") String tenant, @PathParam("id") String id) {
        return answer(id);
    }

    @POST
    @Path("{id}/ping")
    @PermitAll
    public Uni<String> ping(@PathParam("tenant") String tenant, @PathParam("id") String id) {
        return answer(id);
    }

    private static Uni<String> answer(String id) {
        if ("bad".equals(id)) {
            throw new ApiException(ApiErrorCode.INVALID_PARAMETER, "path parameter id must not be 'bad'");
        }
        return Uni.createFrom().item("{\"id\":\"" + id + "\"}");
    }
}
