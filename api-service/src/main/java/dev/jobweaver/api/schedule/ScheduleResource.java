package dev.jobweaver.api.schedule;

import dev.jobweaver.api.job.JobBodies;
import dev.jobweaver.api.job.JobPage;
import dev.jobweaver.api.job.JobQueryService;
import dev.jobweaver.api.job.JobView;
import dev.jobweaver.api.job.store.JobReadStore;
import dev.jobweaver.api.queue.LiveWorkerView;
import dev.jobweaver.api.security.Roles;
import dev.jobweaver.api.security.Caller;
import dev.jobweaver.api.security.Callers;
import dev.jobweaver.api.platform.http.RefusedException;
import dev.jobweaver.api.platform.http.ApiException;
import dev.jobweaver.api.platform.http.BodyReader;
import dev.jobweaver.api.platform.http.PageQuery;
import dev.jobweaver.api.platform.http.RestSupport;
import dev.jobweaver.api.platform.http.TenantQuery;
import dev.jobweaver.api.workflow.WorkflowService;
import dev.jobweaver.api.platform.http.ApiErrorCode;
import dev.jobweaver.common.messaging.Headers;
import dev.jobweaver.common.worker.LiveWorkers;
import io.opentelemetry.context.Context;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * {@code /api/schedules}: recurring schedules. The API owns their definitions (what each run makes); the scheduler,
 * which learns their timing on {@code schedules}, fires their ticks, and each tick's job is made here.
 */
@Path("/api/schedules")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "schedules")
public class ScheduleResource {

    private final ScheduleService schedules;
    private final WorkflowService workflows;
    private final RestSupport rest;
    private final BodyReader bodies;
    private final JobBodies jobs;
    private final Callers callers;
    private final ScheduleHistory history;
    private final JobQueryService queries;
    private final LiveWorkerView liveWorkers;

    public ScheduleResource(ScheduleService schedules, WorkflowService workflows, RestSupport rest,
                            JobBodies jobs, Callers callers, BodyReader bodies, ScheduleHistory history,
                            JobQueryService queries, LiveWorkerView liveWorkers) {
        this.callers = callers;
        this.history = history;
        this.queries = queries;
        this.liveWorkers = liveWorkers;
        this.schedules = schedules;
        this.workflows = workflows;
        this.rest = rest;
        this.bodies = bodies;
        this.jobs = jobs;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Create a schedule", description = "A cron expression (5 fields as a Kubernetes CronJob, 6"
            + " with seconds first, or @hourly, @daily, @weekly, @monthly) read in a time zone, or an ISO-8601 interval"
            + " of at least 1 s; and the job each run makes, as a POST /api/jobs body, or instead workflowId, the"
            + " workflow each run starts (the schedule's tenant is then the workflow's). Answers 201 once stored; the"
            + " scheduler learns the timing through Kafka right after.")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = ScheduleRequest.class)))
    @APIResponse(responseCode = "201", description = "created",
            headers = @Header(name = "Location", description = "/api/schedules/{id}"),
            content = @Content(schema = @Schema(implementation = ScheduleView.class)))
    @APIResponse(responseCode = "400", description = "invalid request; the message names the field"
            + " (API.INVALID_SCHEDULE_REQUEST, or API.MALFORMED_JSON for a body that is not JSON or a wrong type)")
    @RolesAllowed(Roles.OPERATOR)
    public Uni<RestResponse<ScheduleView>> create(byte[] body) {
        Caller caller = callers.current();
        ScheduleDefinition definition = definition(body, caller.tenant());
        return unavailableOnOutage(withWorkflowTenant(definition, caller).chain(schedules::create), "stored")
                // relative, as for jobs: created(URI) would resolve it against the request's URI
                .map(stored -> RestResponse.ResponseBuilder.create(RestResponse.Status.CREATED,
                                ScheduleView.of(stored, ScheduleHistory.Fired.NEVER, Instant.now()))
                        .header(HttpHeaders.LOCATION, "/api/schedules/" + stored.id())
                        .build());
    }

    @GET
    @Operation(summary = "List schedules", description = "Newest first, optionally of one tenant.")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = SchedulePage.class)))
    @RolesAllowed(Roles.VIEWER)
    public Uni<SchedulePage> list(
            @BeanParam TenantQuery tenant,
            @BeanParam PageQuery pages) {
        String tenantFilter = callers.current().filterTenant(rest.tenant(tenant));
        RestSupport.Paging paging = rest.paging(pages);
        Instant now = Instant.now();
        return unavailableOnOutage(schedules.list(tenantFilter, paging.page(), paging.size())
                .chain(slice -> history.of(slice.items().stream().map(StoredSchedule::id).toList())
                        .map(fired -> paging.of(slice, s -> ScheduleView.of(s, fired.getOrDefault(s.id(),
                                ScheduleHistory.Fired.NEVER), now), SchedulePage::new))), "read");
    }

    @GET
    @Path("{id}")
    @Operation(summary = "Read a schedule", description = "Its definition, version, next run, and its history: how many"
            + " runs it made (firedCount) and when the last one was (lastFiredAt).")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = ScheduleView.class)))
    @RolesAllowed(Roles.VIEWER)
    public Uni<ScheduleView> get(@Parameter(description = "the schedule's UUID") @PathParam("id") String id) {
        Caller caller = callers.current();
        UUID scheduleId = scheduleId(id);
        return visible(caller, scheduleId).chain(this::view);
    }

    @GET
    @Path("{id}/jobs")
    @Operation(summary = "The jobs a schedule made", description = "Newest first, as GET /api/jobs?scheduleId= pages"
            + " them: its ticks' and triggers' jobs that are still kept.")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = JobPage.class)))
    @APIResponse(responseCode = "404", description = "no such schedule, or one of another tenant"
            + " (API.SCHEDULE_NOT_FOUND)")
    @RolesAllowed(Roles.VIEWER)
    public Uni<JobPage> jobs(@Parameter(description = "the schedule's UUID") @PathParam("id") String id,
                             @BeanParam PageQuery pages) {
        Caller caller = callers.current();
        UUID scheduleId = scheduleId(id);
        RestSupport.Paging paging = rest.paging(pages);
        return visible(caller, scheduleId).chain(schedule -> unavailableOnOutage(queries.list(
                        new JobReadStore.Filter(null, null, null, null, List.of(), scheduleId),
                        paging.page(), paging.size()), "read"))
                .map(slice -> {
                    LiveWorkers workers = liveWorkers.live();
                    return paging.of(slice, job -> JobView.of(job, workers), JobPage::new);
                });
    }

    @PUT
    @Path("{id}")
    @RolesAllowed(Roles.OPERATOR)
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Replace a schedule", description = "The body is a whole definition, as for POST; the"
            + " version goes up by one. A changed interval counts its ticks from now.")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = ScheduleRequest.class)))
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = ScheduleView.class)))
    @APIResponse(responseCode = "400", description = "invalid request or id; the message names the field")
    public Uni<ScheduleView> replace(@Parameter(description = "the schedule's UUID") @PathParam("id") String id,
                                     byte[] body) {
        Caller caller = callers.current();
        UUID scheduleId = scheduleId(id);
        // read before the schedule so that a bad body is a 400 whether or not the schedule exists; read again with the
        // schedule's own tenant, which a body naming none keeps
        definition(body, caller.tenant());
        return visible(caller, scheduleId).chain(existing -> unavailableOnOutage(withWorkflowTenant(
                        definition(body, existing.tenant()), caller)
                .chain(resolved -> schedules.replace(scheduleId, resolved)), "stored"))
                .chain(stored -> view(RestSupport.found(stored, () -> notFound(scheduleId))));
    }

    @DELETE
    @Path("{id}")
    @Operation(summary = "Delete a schedule", description = "204 once the delete is committed: no tick makes a job"
            + " after it. The scheduler forgets the schedule through its tombstone on Kafka, published right after.")
    @APIResponse(responseCode = "204", description = "deleted")
    @RolesAllowed(Roles.OPERATOR)
    public Uni<RestResponse<Void>> delete(@Parameter(description = "the schedule's UUID") @PathParam("id") String id) {
        Caller caller = callers.current();
        UUID scheduleId = scheduleId(id);
        return visible(caller, scheduleId).chain(existing -> unavailableOnOutage(schedules.delete(scheduleId),
                "deleted")).map(deleted -> RestSupport.noContent(deleted, () -> notFound(scheduleId)));
    }

    @POST
    @Path("{id}/pause")
    @Operation(summary = "Pause a schedule", description = "No tick makes a job until it is resumed; a schedule"
            + " already paused is answered as it is. No request body.")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = ScheduleView.class)))
    @RolesAllowed(Roles.OPERATOR)
    public Uni<ScheduleView> pause(@Parameter(description = "the schedule's UUID") @PathParam("id") String id) {
        return paused(id, true);
    }

    @POST
    @Path("{id}/resume")
    @Operation(summary = "Resume a schedule", description = "Runs again from its next tick (missed ticks of a pause"
            + " are not caught up); a schedule not paused is answered as it is. No request body.")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = ScheduleView.class)))
    @RolesAllowed(Roles.OPERATOR)
    public Uni<ScheduleView> resume(@Parameter(description = "the schedule's UUID") @PathParam("id") String id) {
        return paused(id, false);
    }

    @POST
    @Path("{id}/trigger")
    @Operation(summary = "Run a schedule once now", description = "Makes one job at once from the schedule's"
            + " template (or starts one run of its workflow), paused or not, with scheduleId and scheduledFor (now);"
            + " 202 once it is committed. Send a W3C traceparent header to join the job or run to your own trace. No"
            + " request body.")
    @APIResponse(responseCode = "202", description = "the run's job was accepted, or its workflow run started",
            headers = @Header(name = "Location", description = "/api/jobs/{jobId} or /api/workflow-runs/{runId}"),
            content = @Content(schema = @Schema(implementation = ScheduleTriggered.class)))
    @APIResponse(responseCode = "404", description = "no such schedule (API.SCHEDULE_NOT_FOUND), or the workflow it"
            + " starts was deleted (API.WORKFLOW_NOT_FOUND)")
    @RolesAllowed(Roles.OPERATOR)
    public Uni<RestResponse<ScheduleTriggered>> trigger(
            @Parameter(description = "the schedule's UUID") @PathParam("id") String id,
            @HeaderParam(Headers.TRACEPARENT) String traceparent) {
        Caller caller = callers.current();
        UUID scheduleId = scheduleId(id);
        Context parent = Context.current();
        return visible(caller, scheduleId).chain(existing -> unavailableOnOutage(schedules.trigger(scheduleId, parent,
                        traceparent), "run"))
                .map(outcome -> switch (outcome) {
                    case ScheduledJobs.Outcome.Made made -> RestResponse.ResponseBuilder
                            .accepted(ScheduleTriggered.job(made.jobId(), made.traceId(), scheduleId,
                                    made.run().scheduledFor()))
                            .header(HttpHeaders.LOCATION, "/api/jobs/" + made.jobId())
                            .build();
                    case ScheduledJobs.Outcome.RunStarted started -> RestResponse.ResponseBuilder
                            .accepted(ScheduleTriggered.run(started.started().runId(), started.started().traceId(),
                                    scheduleId, started.run().scheduledFor()))
                            .header(HttpHeaders.LOCATION, "/api/workflow-runs/" + started.started().runId())
                            .build();
                    case ScheduledJobs.Outcome.Ignored ignored
                            when ignored.reason() == ScheduleMetrics.Ignored.NO_WORKFLOW ->
                            throw new ApiException(ApiErrorCode.WORKFLOW_NOT_FOUND, "schedule " + scheduleId
                                    + " starts a workflow that does not exist any more");
                    case ScheduledJobs.Outcome.Ignored ignored -> throw notFound(scheduleId);
                });
    }

    private Uni<ScheduleView> paused(String id, boolean paused) {
        Caller caller = callers.current();
        UUID scheduleId = scheduleId(id);
        return visible(caller, scheduleId).chain(existing -> unavailableOnOutage(schedules.pause(scheduleId, paused),
                        "stored"))
                .chain(stored -> view(RestSupport.found(stored, () -> notFound(scheduleId))));
    }

    /**
     * {@code definition} with its tenant when it starts a workflow: the workflow's. A 400 when the workflow does not
     * exist, or when the body named another tenant: a run's jobs belong to its workflow's tenant.
     */
    private Uni<ScheduleDefinition> withWorkflowTenant(ScheduleDefinition definition, Caller caller) {
        if (!(definition.target() instanceof ScheduleTarget.Workflow target)) {
            // a body naming another tenant than the caller's own is refused with 403 before anything is stored
            caller.tenantOf(definition.tenant());
            return Uni.createFrom().item(definition);
        }
        return workflows.find(target.workflowId(), null).map(workflow -> {
            if (workflow == null || !caller.sees(workflow.tenant())) {
                throw refused(new ApiException(ApiErrorCode.INVALID_SCHEDULE_REQUEST, "workflowId "
                        + target.workflowId() + " names no workflow"));
            }
            if (definition.tenant() != null && !definition.tenant().equals(workflow.tenant())) {
                throw refused(new ApiException(ApiErrorCode.INVALID_SCHEDULE_REQUEST, "tenant '" + definition.tenant()
                        + "' differs from the tenant of workflow " + workflow.id() + ", '" + workflow.tenant()
                        + "'; give that one, or none"));
            }
            return definition.withTenant(workflow.tenant());
        });
    }

    /** The body's definition, valid now, its tenant {@code ownTenant} when it names none; a 400 (or 413) otherwise. */
    private ScheduleDefinition definition(byte[] body, String ownTenant) {
        rest.checkSize(body);
        try {
            return bodies.required(body, ScheduleRequest.class).definition(jobs,
                    Instant.now().truncatedTo(ChronoUnit.MICROS), ownTenant);
        } catch (RefusedException e) {
            throw refused(e);
        }
    }

    /** {@code schedule} with its history. */
    private Uni<ScheduleView> view(StoredSchedule schedule) {
        return unavailableOnOutage(history.of(schedule.id()), "read")
                .map(fired -> ScheduleView.of(schedule, fired, Instant.now()));
    }

    /**
     * A 503 with {@code Retry-After} when the database is unreachable or overloaded: the client's request was fine and
     * may be repeated. A permanent failure stays a 500.
     */
    private <T> Uni<T> unavailableOnOutage(Uni<T> call, String what) {
        return rest.unavailableOnOutage(call, "the schedule could not be " + what);
    }

    /** The path's schedule id; 400 when it is not a UUID. */
    private UUID scheduleId(String id) {
        return rest.uuid("id", id);
    }

    /** The schedule; 404 when there is none or the caller may not see its tenant, before anything is changed. */
    private Uni<StoredSchedule> visible(Caller caller, UUID scheduleId) {
        return RestSupport.visible(unavailableOnOutage(schedules.find(scheduleId), "read"),
                found -> caller.sees(found.tenant()), () -> notFound(scheduleId));
    }

    private static ApiException notFound(UUID scheduleId) {
        return new ApiException(ApiErrorCode.SCHEDULE_NOT_FOUND, "no schedule with id " + scheduleId);
    }

    private <E extends RefusedException> E refused(E e) {
        return rest.refused(e);
    }
}
