package dev.jobweaver.api.event;

import dev.jobweaver.api.platform.http.ApiErrorCode;
import dev.jobweaver.api.platform.http.ApiException;
import dev.jobweaver.api.platform.http.BodyErrors;
import dev.jobweaver.api.platform.http.BodyLimit;
import dev.jobweaver.api.platform.http.RestSupport;
import dev.jobweaver.api.platform.http.StrictJson;
import dev.jobweaver.api.security.Caller;
import dev.jobweaver.api.security.Callers;
import dev.jobweaver.api.security.Roles;
import io.opentelemetry.context.Context;
import io.quarkus.resteasy.reactive.jackson.CustomDeserialization;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * {@code POST /api/events}: application events, each of which starts a run of every workflow of its tenant whose
 * triggers name its type ({@link EventService}). A submitter's, as a job's submission is: an event is the client's
 * own news, which the tenant's operators decided (by the triggers) what to run for.
 */
@Path("/api/events")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "events")
public class EventResource {

    private final EventService events;
    private final RestSupport rest;
    private final Callers callers;

    public EventResource(EventService events, RestSupport rest, Callers callers) {
        this.events = events;
        this.rest = rest;
        this.callers = callers;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Publish an application event", description = "Starts one run of every workflow of the"
            + " tenant whose triggers name the event's type, with {\"id\",\"type\",\"data\"} as the run's input. The"
            + " same id again (of the same tenant) starts nothing new and is answered with the same runs; with another"
            + " type or other data it is a 409. 202 once the runs are stored; the scheduler starts them right after.")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = EventRequest.class)))
    @APIResponse(responseCode = "202", description = "published: the runs it started (or, for a repeat, had started)",
            content = @Content(schema = @Schema(implementation = EventPublished.class)))
    @APIResponse(responseCode = "400", description = "invalid request; the message names the field"
            + " (API.INVALID_EVENT_REQUEST, or API.MALFORMED_JSON for a body that is not JSON or a wrong type)")
    @APIResponse(responseCode = "409", description = "the id was published before with another type or other data"
            + " (API.EVENT_ID_CONFLICT); nothing was started")
    @APIResponse(responseCode = "413", description = "the body is over 64 KiB, or the event is larger than a run's"
            + " input may be (jobweaver.api.workflows.max-input-bytes, 16 KiB by default)")
    @RolesAllowed(Roles.SUBMITTER)
    @CustomDeserialization(StrictJson.class)
    @BodyLimit
    public Uni<RestResponse<EventPublished>> publish(@Valid EventRequest body) {
        if (body == null) {
            throw rest.refused(BodyErrors.empty(EventRequest.class));
        }
        Caller caller = callers.current();
        // another tenant than the caller's own is a 403 before anything is stored
        String tenant = caller.tenantOf(body.tenant());
        String id = body.id() != null ? body.id() : UUID.randomUUID().toString();
        String problem = events.inputProblem(id, body.type(), body.data());
        if (problem != null) {
            throw rest.refused(new ApiException(ApiErrorCode.PAYLOAD_TOO_LARGE, problem));
        }
        return rest.unavailableOnOutage(events.publish(tenant, id, body.type(), body.data(), Context.current())
                        .onFailure(EventService.EventIdConflictException.class).transform(e -> rest.refused(
                                new ApiException(ApiErrorCode.EVENT_ID_CONFLICT, e.getMessage()))),
                        "the event could not be stored")
                .map(published -> RestResponse.ResponseBuilder
                        .accepted(new EventPublished(published.eventId(), published.runs())).build());
    }
}
