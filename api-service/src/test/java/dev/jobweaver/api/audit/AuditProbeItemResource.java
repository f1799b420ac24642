package dev.jobweaver.api.audit;

import dev.jobweaver.api.security.Roles;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import org.jboss.resteasy.reactive.RestResponse;

/** An operator endpoint whose path names no tenant, for the audit filter's tests only. */
@Path("/api/audit-probe/items/{id}")
public class AuditProbeItemResource {

    @DELETE
    @RolesAllowed(Roles.OPERATOR)
    public RestResponse<Void> remove(@PathParam("id") String id) {
        return RestResponse.noContent();
    }
}
