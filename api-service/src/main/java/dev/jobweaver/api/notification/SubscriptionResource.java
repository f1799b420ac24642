package dev.jobweaver.api.notification;

import dev.jobweaver.api.platform.http.ApiException;
import dev.jobweaver.api.platform.http.BodyErrors;
import dev.jobweaver.api.platform.http.RestSupport;
import dev.jobweaver.api.platform.http.StrictJson;
import dev.jobweaver.api.schedule.ScheduleService;
import dev.jobweaver.api.security.Caller;
import dev.jobweaver.api.security.Callers;
import dev.jobweaver.api.security.Roles;
import dev.jobweaver.api.workflow.WorkflowService;
import dev.jobweaver.api.platform.http.ApiErrorCode;
import dev.jobweaver.common.reactive.VertxContexts;
import io.quarkus.resteasy.reactive.jackson.CustomDeserialization;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
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
 * {@code /api/subscriptions}: subscribe a URL to a job's, a schedule's, a workflow's or a job type's state changes,
 * read or delete the subscription, and read its delivery log.
 */
@Path("/api/subscriptions")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "subscriptions")
public class SubscriptionResource {

    /** Delivery log lines when {@code limit} is not given, and the most it may ask for. */
    static final int DEFAULT_LIMIT = 100;
    static final int MAX_LIMIT = 1000;

    @Inject SubscriptionService subscriptions;
    @Inject RestSupport rest;

    @Inject ScheduleService schedules;
    @Inject WorkflowService workflows;
    @Inject Callers callers;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Subscribe to state changes", description = "Exactly one target: jobId (an existing job),"
            + " scheduleId, workflowId or jobType; events: a non-empty list of SCHEDULED, STARTED, RETRYING, COMPLETED,"
            + " FAILED, CANCELLED; url: absolute http or https, whose destination the delivery rules allow. Each change"
            + " is POSTed to the URL signed as Standard Webhooks sign (webhook-id, webhook-timestamp,"
            + " webhook-signature), retried with backoff for 25 h. The answer carries the signing secret, this once.")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = NewSubscription.class, example = "{\"jobId\":\"3fa85f64-5717-4562-b3fc-2c963f66afa6\","
                    + "\"events\":[\"COMPLETED\",\"FAILED\"],\"url\":\"https://hooks.example.com/jobweaver\"}")))
    @APIResponse(responseCode = "201", description = "created; the secret is shown this once",
            headers = @Header(name = "Location", description = "/api/subscriptions/{id}"),
            content = @Content(schema = @Schema(implementation = SubscriptionView.class)))
    @APIResponse(responseCode = "400", description = "invalid request; the message names the field"
            + " (API.INVALID_SUBSCRIPTION_REQUEST, API.MALFORMED_JSON)")
    @APIResponse(responseCode = "404", description = "jobId names no job (API.JOB_NOT_FOUND, with jobId)")
    @RolesAllowed(Roles.SUBMITTER)
    @CustomDeserialization(StrictJson.class)
    public Uni<RestResponse<SubscriptionView>> create(@Valid NewSubscription body) {
        Caller caller = callers.current();
        if (body == null) {
            throw rest.refused(BodyErrors.empty(NewSubscription.class));
        }
        SubscriptionRequest request = body.request();
        return VertxContexts.backToCaller(subscriptions.destinationRefusal(request))
                .chain(refusal -> {
                    if (refusal != null) {
                        throw rest.refused(new ApiException(ApiErrorCode.INVALID_SUBSCRIPTION_REQUEST,
                                "url is refused: " + refusal));
                    }
                    return owner(request, caller).chain(tenant -> subscriptions.create(request, tenant,
                            caller::sees));
                })
                .onFailure(SubscriptionService.JobNotFoundException.class).transform(e -> {
                    UUID jobId = ((SubscriptionService.JobNotFoundException) e).id();
                    return rest.refused(new ApiException(ApiErrorCode.JOB_NOT_FOUND, "jobId " + jobId
                            + " names no job; a subscription to a job needs an existing job", jobId.toString()));
                })
                // Location as JobResource writes it: relative, as SPEC.md shows it
                .map(created -> RestResponse.ResponseBuilder.<SubscriptionView>create(RestResponse.Status.CREATED)
                        .entity(SubscriptionView.withSecret(created))
                        .header(HttpHeaders.LOCATION, "/api/subscriptions/" + created.id)
                        .build());
    }

    @GET
    @Path("{id}")
    @Operation(summary = "Read a subscription", description = "Its target, events, URL and creation time; never its"
            + " secret.")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = SubscriptionView.class)))
    @RolesAllowed(Roles.VIEWER)
    public Uni<SubscriptionView> get(@Parameter(description = "the subscription's UUID") @PathParam("id") String id) {
        Caller caller = callers.current();
        UUID subscriptionId = rest.uuid("id", id);
        return visible(caller, subscriptionId).map(SubscriptionView::of);
    }

    @DELETE
    @Path("{id}")
    @Operation(summary = "Delete a subscription", description = "With its deliveries and their log; a delivery being"
            + " sent may still arrive once.")
    @APIResponse(responseCode = "204", description = "deleted")
    @RolesAllowed(Roles.SUBMITTER)
    public Uni<RestResponse<Void>> delete(@Parameter(description = "the subscription's UUID") @PathParam("id")
                                          String id) {
        Caller caller = callers.current();
        UUID subscriptionId = rest.uuid("id", id);
        return visible(caller, subscriptionId).chain(existing -> subscriptions.delete(subscriptionId))
                .map(deleted -> RestSupport.noContent(deleted, () -> notFound(subscriptionId)));
    }

    @GET
    @Path("{id}/deliveries")
    @Operation(summary = "A subscription's delivery log", description = "Newest first: one entry per attempt (time,"
            + " answer status or error, duration) with its delivery's state (PENDING, DELIVERED, GIVEN_UP), and one"
            + " with attempt 0 for a delivery not attempted yet.")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = DeliveryLog.class)))
    @RolesAllowed(Roles.VIEWER)
    public Uni<DeliveryLog> deliveries(
            @Parameter(description = "the subscription's UUID") @PathParam("id") String id,
            @Parameter(description = "most entries, 1..1000", schema = @Schema(type = SchemaType.INTEGER, minimum = "1",
                    maximum = "1000", defaultValue = "100")) @QueryParam("limit") String limit) {
        Caller caller = callers.current();
        UUID subscriptionId = rest.uuid("id", id);
        int max = limit(limit);
        return visible(caller, subscriptionId).chain(existing -> subscriptions.deliveries(subscriptionId, max))
                .map(entries -> new DeliveryLog(RestSupport.found(entries, () -> notFound(subscriptionId))));
    }

    /** The limit query parameter, 1..{@value #MAX_LIMIT}, {@value #DEFAULT_LIMIT} when absent; 400 otherwise. */
    private int limit(String value) {
        return rest.integer("limit", value, DEFAULT_LIMIT, 1, MAX_LIMIT);
    }

    /** The subscription; 404 when there is none or the caller may not see its tenant, before anything is changed. */
    private Uni<Subscription> visible(Caller caller, UUID id) {
        return RestSupport.visible(subscriptions.find(id), found -> caller.sees(found.tenant), () -> notFound(id));
    }

    /**
     * The tenant a subscription not to a job belongs to: its schedule's or workflow's (404 when the caller may not see
     * it; the caller's own while it does not exist), or, for a job type, the caller's. A job type's subscription hears
     * the jobs of every tenant, so only a caller that sees every tenant may make one.
     */
    private Uni<String> owner(SubscriptionRequest request, Caller caller) {
        if (request.scheduleId() != null) {
            return schedules.find(request.scheduleId()).map(schedule -> {
                if (schedule != null && !caller.sees(schedule.tenant())) {
                    throw new ApiException(ApiErrorCode.SCHEDULE_NOT_FOUND, "scheduleId " + request.scheduleId()
                            + " names no schedule");
                }
                return schedule == null ? caller.tenant() : schedule.tenant();
            });
        }
        if (request.workflowId() != null) {
            return workflows.find(request.workflowId(), null).map(workflow -> {
                if (workflow != null && !caller.sees(workflow.tenant())) {
                    throw new ApiException(ApiErrorCode.WORKFLOW_NOT_FOUND, "workflowId " + request.workflowId()
                            + " names no workflow");
                }
                return workflow == null ? caller.tenant() : workflow.tenant();
            });
        }
        if (request.jobType() != null && !caller.allTenants()) {
            throw new ApiException(ApiErrorCode.TENANT_FORBIDDEN, "a subscription to jobType " + request.jobType()
                    + " hears the jobs of every tenant; subscribe to a job, a schedule or a workflow of tenant '"
                    + caller.tenant() + "' instead");
        }
        return Uni.createFrom().item(caller.tenant());
    }

    private static ApiException notFound(UUID id) {
        return new ApiException(ApiErrorCode.SUBSCRIPTION_NOT_FOUND, "no subscription with id " + id);
    }
}
