package dev.jobweaver.api.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.api.job.JobBodies;
import dev.jobweaver.api.platform.db.Slice;
import dev.jobweaver.api.security.Roles;
import dev.jobweaver.api.security.Caller;
import dev.jobweaver.api.security.Callers;
import dev.jobweaver.api.platform.http.RefusedException;
import dev.jobweaver.api.platform.http.ApiException;
import dev.jobweaver.api.platform.http.BodyReader;
import dev.jobweaver.api.platform.http.PageQuery;
import dev.jobweaver.api.platform.http.RestSupport;
import dev.jobweaver.api.platform.http.TenantQuery;
import dev.jobweaver.api.platform.http.ApiErrorCode;
import dev.jobweaver.common.messaging.Headers;
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
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
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
 * {@code /api/workflows}: workflows (a graph of jobs) and their runs. The API owns their definitions, every version of
 * them, and makes every node's job; the scheduler drives each run from its nodes' outcomes.
 */
@Path("/api/workflows")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "workflows")
public class WorkflowResource {

    private static final String ERRORS = "invalid request; the message names the field and the node"
            + " (API.INVALID_WORKFLOW_REQUEST, or API.MALFORMED_JSON for a body that is not JSON or a wrong type)";

    private final WorkflowService workflows;
    private final WorkflowRunService runs;
    private final RestSupport rest;
    private final BodyReader bodies;
    private final JobBodies jobs;
    private final Callers callers;

    public WorkflowResource(WorkflowService workflows, WorkflowRunService runs, RestSupport rest, JobBodies jobs,
                            Callers callers, BodyReader bodies) {
        this.callers = callers;
        this.workflows = workflows;
        this.runs = runs;
        this.rest = rest;
        this.bodies = bodies;
        this.jobs = jobs;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Create a workflow", description = "A graph of at most 100 nodes, each a job (a POST"
            + " /api/jobs body) and the nodes it depends on; node ids unique, dependencies known, no cycle. Optional:"
            + " maxConcurrency (1..10000 node jobs of the workflow running at once), onFailure (FAIL_FAST, the"
            + " default, or CONTINUE), tenant (default 'default'), which every node's job takes. Answers 201 with"
            + " version 1.")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = WorkflowRequest.class)))
    @APIResponse(responseCode = "201", description = "created",
            headers = @Header(name = "Location", description = "/api/workflows/{id}"),
            content = @Content(schema = @Schema(implementation = WorkflowView.class)))
    @APIResponse(responseCode = "400", description = ERRORS)
    @RolesAllowed(Roles.OPERATOR)
    public Uni<RestResponse<WorkflowView>> create(byte[] body) {
        Caller caller = callers.current();
        WorkflowDefinition definition = definition(body, caller, caller.tenant());
        return rest.unavailableOnOutage(workflows.create(definition), "the workflow could not be stored")
                .map(stored -> RestResponse.ResponseBuilder.create(RestResponse.Status.CREATED, WorkflowView.of(stored))
                        .header(HttpHeaders.LOCATION, "/api/workflows/" + stored.id())
                        .build());
    }

    @GET
    @Operation(summary = "List workflows", description = "Newest first, each at its latest version, optionally of one"
            + " tenant.")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = WorkflowPage.class)))
    @RolesAllowed(Roles.VIEWER)
    public Uni<WorkflowPage> list(
            @BeanParam TenantQuery tenant,
            @BeanParam PageQuery pages) {
        String tenantFilter = callers.current().filterTenant(rest.tenant(tenant));
        RestSupport.Paging paging = rest.paging(pages);
        return rest.unavailableOnOutage(workflows.list(tenantFilter, paging.page(), paging.size()),
                        "the workflows could not be read")
                .map(slice -> paging.of(slice, WorkflowView::of, WorkflowPage::new));
    }

    @GET
    @Path("{id}")
    @Operation(summary = "Read a workflow", description = "Its latest version, or the one given as ?version=N.")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = WorkflowView.class)))
    @APIResponse(responseCode = "404", description = "no such workflow or version (API.WORKFLOW_NOT_FOUND)")
    @RolesAllowed(Roles.VIEWER)
    public Uni<WorkflowView> get(@Parameter(description = "the workflow's UUID") @PathParam("id") String id,
                                 @Parameter(description = "a version; the latest without it", schema = @Schema(
                                         type = SchemaType.INTEGER, minimum = "1")) @QueryParam("version")
                                 String version) {
        Caller caller = callers.current();
        UUID workflowId = rest.uuid("id", id);
        Integer wanted = version == null || version.isEmpty() ? null
                : rest.integer("version", version, 0, 1, Integer.MAX_VALUE);
        return rest.unavailableOnOutage(workflows.find(workflowId, wanted), "the workflow could not be read")
                .map(found -> {
                    if (found == null || !caller.sees(found.tenant())) {
                        throw wanted == null ? notFound(workflowId) : new ApiException(ApiErrorCode.WORKFLOW_NOT_FOUND,
                                "no workflow with id " + workflowId + " and version " + wanted);
                    }
                    return WorkflowView.of(found);
                });
    }

    @PUT
    @Path("{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Replace a workflow", description = "The body is a whole definition, as for POST; it becomes"
            + " the next version, which new runs start with. Runs already started keep their version.")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = WorkflowRequest.class)))
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = WorkflowView.class)))
    @APIResponse(responseCode = "400", description = ERRORS)
    @RolesAllowed(Roles.OPERATOR)
    public Uni<WorkflowView> replace(@Parameter(description = "the workflow's UUID") @PathParam("id") String id,
                                     byte[] body) {
        Caller caller = callers.current();
        UUID workflowId = rest.uuid("id", id);
        // read before the workflow so that a bad body is a 400 whether or not the workflow exists; read again with the
        // workflow's own tenant, which a body naming none keeps
        definition(body, caller, caller.tenant());
        return visible(caller, workflowId).chain(existing -> rest.unavailableOnOutage(workflows.replace(workflowId,
                        definition(body, caller, existing.tenant())), "the workflow could not be stored"))
                .map(stored -> WorkflowView.of(RestSupport.found(stored, () -> notFound(workflowId))));
    }

    @DELETE
    @Path("{id}")
    @Operation(summary = "Delete a workflow", description = "204 once the delete is committed: the workflow starts no"
            + " run after it. Runs in flight go on with their version.")
    @APIResponse(responseCode = "204", description = "deleted")
    @RolesAllowed(Roles.OPERATOR)
    public Uni<RestResponse<Void>> delete(@Parameter(description = "the workflow's UUID") @PathParam("id") String id) {
        Caller caller = callers.current();
        UUID workflowId = rest.uuid("id", id);
        return visible(caller, workflowId).chain(existing -> rest.unavailableOnOutage(workflows.delete(workflowId),
                        "the workflow could not be deleted"))
                .map(deleted -> RestSupport.noContent(deleted, () -> notFound(workflowId)));
    }

    @POST
    @Path("{id}/runs")
    @Operation(summary = "Start a run", description = "A run of the workflow's latest version, with an optional"
            + " input (any JSON) that every node's job gets as payload.input. 202 once the run is stored; the"
            + " scheduler starts it through Kafka right after. The run is one trace (traceId): send a W3C traceparent"
            + " header to join it to your own.")
    @RequestBody(content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = RunRequest.class)))
    @APIResponse(responseCode = "202", description = "the run was accepted",
            headers = @Header(name = "Location", description = "/api/workflow-runs/{runId}"),
            content = @Content(schema = @Schema(implementation = RunStarted.class)))
    @APIResponse(responseCode = "400", description = "the id is not a UUID, the body not JSON, or the input too"
            + " large")
    @RolesAllowed(Roles.OPERATOR)
    public Uni<RestResponse<RunStarted>> start(
            @Parameter(description = "the workflow's UUID") @PathParam("id") String id,
            @HeaderParam(Headers.TRACEPARENT) String traceparent, byte[] body) {
        Caller caller = callers.current();
        UUID workflowId = rest.uuid("id", id);
        rest.checkSize(body);
        JsonNode input;
        try {
            RunRequest run = bodies.optional(body, RunRequest.class);
            input = run == null ? null : run.given();
        } catch (RefusedException e) {
            throw rest.refused(e);
        }
        String problem = runs.inputProblem(input);
        if (problem != null) {
            throw rest.refused(new ApiException(ApiErrorCode.INVALID_WORKFLOW_REQUEST, problem));
        }
        Context parent = Context.current();
        return visible(caller, workflowId).chain(existing -> rest.unavailableOnOutage(runs.start(workflowId, input,
                        parent, traceparent), "the run could not be stored")).map(started -> {
                    if (started == null) {
                        throw notFound(workflowId);
                    }
                    return RestResponse.ResponseBuilder.accepted(new RunStarted(started.runId(), started.traceId(),
                                    started.workflowId(), started.version(), started.status()))
                            .header(HttpHeaders.LOCATION, "/api/workflow-runs/" + started.runId())
                            .build();
                });
    }

    @GET
    @Path("{id}/runs")
    @Operation(summary = "List a workflow's runs", description = "Newest first.")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = WorkflowRunPage.class)))
    @RolesAllowed(Roles.VIEWER)
    public Uni<WorkflowRunPage> runs(
            @Parameter(description = "the workflow's UUID") @PathParam("id") String id,
            @BeanParam PageQuery pages) {
        Caller caller = callers.current();
        UUID workflowId = rest.uuid("id", id);
        RestSupport.Paging paging = rest.paging(pages);
        return visible(caller, workflowId).chain(existing -> rest.unavailableOnOutage(runs.list(workflowId,
                        paging.page(), paging.size()), "the runs could not be read"))
                .map(found -> {
                    Slice<StoredRun> slice = RestSupport.found(found, () -> notFound(workflowId));
                    return paging.of(slice, WorkflowRunView::of, WorkflowRunPage::new);
                });
    }

    /**
     * The body's definition, valid now, its tenant {@code ownTenant} when it names none; a 400 (or 413) naming what is
     * wrong otherwise, a 403 when it names a tenant the caller may not use.
     */
    private WorkflowDefinition definition(byte[] body, Caller caller, String ownTenant) {
        rest.checkSize(body);
        WorkflowDefinition definition;
        try {
            definition = bodies.required(body, WorkflowRequest.class).definition(jobs,
                    Instant.now().truncatedTo(ChronoUnit.MICROS), ownTenant);
        } catch (RefusedException e) {
            throw rest.refused(e);
        }
        // a body naming another tenant than the caller's own is refused with 403 before anything is stored
        caller.tenantOf(definition.tenant());
        return definition;
    }

    /** The workflow at its latest version; 404 when there is none or the caller may not see its tenant. */
    private Uni<StoredWorkflow> visible(Caller caller, UUID workflowId) {
        return RestSupport.visible(rest.unavailableOnOutage(workflows.find(workflowId, null),
                "the workflow could not be read"), found -> caller.sees(found.tenant()), () -> notFound(workflowId));
    }

    private static ApiException notFound(UUID workflowId) {
        return new ApiException(ApiErrorCode.WORKFLOW_NOT_FOUND, "no workflow with id " + workflowId);
    }
}
