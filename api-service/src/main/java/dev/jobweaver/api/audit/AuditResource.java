package dev.jobweaver.api.audit;

import dev.jobweaver.api.platform.http.ApiException;
import dev.jobweaver.api.platform.http.RestSupport;
import dev.jobweaver.api.platform.http.ApiErrorCode;
import dev.jobweaver.api.security.Roles;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.regex.Pattern;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** {@code GET /api/audit}: the operator and admin actions, newest first, for admins. */
@Path("/api/audit")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "audit")
public class AuditResource {

    /** The default page size: an audit page is read by a person, a screen of it at a time. */
    static final int DEFAULT_SIZE = 50;
    static final int MAX_ACTOR_LENGTH = 200;
    static final int MAX_PATH_LENGTH = 300;

    private static final Pattern PATH = Pattern.compile("/\\S*");

    @Inject AuditLog log;
    @Inject RestSupport rest;

    @GET
    @RolesAllowed(Roles.ADMIN)
    @Operation(summary = "Read the audit log", description = "Every call of an operator or admin endpoint that changes"
            + " something (POST, PUT, PATCH, DELETE), answered or refused: who, when, which endpoint, on what, with"
            + " which status. Newest first; every filter given must match.")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = AuditPage.class)))
    @APIResponse(responseCode = "401", description = "no valid credentials (API.UNAUTHENTICATED)")
    @APIResponse(responseCode = "403", description = "the caller is not an admin (API.FORBIDDEN)")
    public Uni<AuditPage> list(
            @Parameter(description = "the caller, exactly as entries name it") @QueryParam("actor") String actor,
            @Parameter(description = "entries of the tenant's callers or on the tenant's objects",
                    schema = @Schema(type = SchemaType.STRING, pattern = "[a-z0-9][a-z0-9-]{0,62}"))
            @QueryParam("tenant") String tenant,
            @Parameter(description = "a method (DELETE), a path template (/api/dead-letters/{jobId}/requeue), or"
                    + " both (POST /api/dead-letters/{jobId}/requeue)") @QueryParam("action") String action,
            @Parameter(description = "entries at or after this instant (ISO-8601)") @QueryParam("since")
            String since,
            @Parameter(description = "entries before this instant (ISO-8601)") @QueryParam("until") String until,
            @Parameter(description = "0-based page", schema = @Schema(type = SchemaType.INTEGER, minimum = "0",
                    defaultValue = "0")) @QueryParam("page") String page,
            @Parameter(description = "page size", schema = @Schema(type = SchemaType.INTEGER, minimum = "1",
                    defaultValue = "50")) @QueryParam("size") String size) {
        String actorFilter = actor(actor);
        String tenantFilter = rest.tenant(tenant);
        String[] methodAndPath = action(action);
        Instant from = instant("since", since);
        Instant to = instant("until", until);
        if (from != null && to != null && !from.isBefore(to)) {
            throw refused("query parameter since must be before until, got " + from + " and " + to);
        }
        RestSupport.Paging paging = new RestSupport.Paging(rest.page(page),
                rest.integer("size", size, DEFAULT_SIZE, 1, rest.limits().maxPageSize()));
        AuditRepository.Filter filter = new AuditRepository.Filter(actorFilter, tenantFilter, methodAndPath[0],
                methodAndPath[1], from, to);
        return rest.unavailableOnOutage(log.list(filter, paging.page(), paging.size()),
                        "the audit log could not be read")
                .map(slice -> paging.of(slice, AuditView::of, AuditPage::new));
    }

    private String actor(String value) {
        if (value == null || value.isEmpty()) {
            return null;
        }
        if (value.length() > MAX_ACTOR_LENGTH || value.isBlank()) {
            throw refused("query parameter actor must be 1 to " + MAX_ACTOR_LENGTH + " characters, not blank");
        }
        return value;
    }

    /** {method, path}, either null when not given. */
    private String[] action(String value) {
        if (value == null || value.isEmpty()) {
            return new String[2];
        }
        String text = value.strip();
        int space = text.indexOf(' ');
        String method = space < 0 ? (text.startsWith("/") ? null : text) : text.substring(0, space);
        String path = space < 0 ? (text.startsWith("/") ? text : null) : text.substring(space + 1).strip();
        if ((method != null && !AuditedEndpoints.MUTATING.contains(method))
                || (path != null && (path.length() > MAX_PATH_LENGTH || !PATH.matcher(path).matches()))) {
            throw refused("query parameter action must be a method (POST, PUT, PATCH, DELETE), a path template"
                    + " (/api/dead-letters/{jobId}/requeue) or both separated by a space, got '" + cut(value) + "'");
        }
        return new String[] {method, path};
    }

    private Instant instant(String name, String value) {
        if (value == null || value.isEmpty()) {
            return null;
        }
        try {
            return Instant.parse(value);
        } catch (DateTimeParseException e) {
            throw refused("query parameter " + name + " must be an ISO-8601 instant such as 2030-01-31T09:00:00Z, got '"
                    + cut(value) + "'");
        }
    }

    private ApiException refused(String message) {
        return rest.refused(new ApiException(ApiErrorCode.INVALID_PARAMETER, message));
    }

    private static String cut(String value) {
        return value.length() > 40 ? value.substring(0, 40) + "..." : value;
    }
}
