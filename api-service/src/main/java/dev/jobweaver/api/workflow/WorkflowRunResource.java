package dev.jobweaver.api.workflow;

import dev.jobweaver.api.security.Roles;
import dev.jobweaver.api.security.Caller;
import dev.jobweaver.api.security.Callers;
import dev.jobweaver.api.platform.http.ApiException;
import dev.jobweaver.api.platform.http.RestSupport;
import dev.jobweaver.api.platform.http.ApiErrorCode;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestResponse;

/** {@code /api/workflow-runs}: a workflow run's state, as the scheduler last reported it, and its cancel. */
@Path("/api/workflow-runs")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "workflows")
public class WorkflowRunResource {

    @Inject WorkflowRunService runs;
    @Inject RestSupport rest;
    @Inject Callers callers;

    @GET
    @Path("{runId}")
    @Operation(summary = "Read a workflow run", description = "Its status and every node's status and job, as the"
            + " scheduler last reported them (PENDING with every node WAITING until its first report), and RUNNING"
            + " for a node whose job runs.")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = WorkflowRunView.class)))
    @RolesAllowed(Roles.VIEWER)
    public Uni<WorkflowRunView> get(@Parameter(description = "the run's UUID") @PathParam("runId") String id) {
        UUID runId = rest.uuid("runId", id);
        return rest.unavailableOnOutage(visible(runId).chain(runs::withRunningNodes), "the run could not be read")
                .map(WorkflowRunView::of);
    }

    @POST
    @Path("{runId}/cancel")
    @Operation(summary = "Cancel a workflow run", description = "202 with the run once the cancel is stored; the"
            + " scheduler cancels every node that has not finished, and the run shows CANCELLED once it reported so."
            + " No request body.")
    @APIResponse(responseCode = "202", content = @Content(schema = @Schema(implementation = WorkflowRunView.class)))
    @APIResponse(responseCode = "409", description = "the run has ended (API.WORKFLOW_RUN_NOT_CANCELLABLE)")
    @RolesAllowed(Roles.OPERATOR)
    public Uni<RestResponse<WorkflowRunView>> cancel(
            @Parameter(description = "the run's UUID") @PathParam("runId") String id) {
        UUID runId = rest.uuid("runId", id);
        // the run's tenant is checked before the cancel is stored; a run's tenant never changes
        return rest.unavailableOnOutage(visible(runId).chain(found -> runs.cancel(runId)),
                        "the cancel could not be stored")
                .map(found -> {
                    WorkflowRunService.Cancel cancel = RestSupport.found(found, () -> notFound(runId));
                    if (cancel.ended()) {
                        throw new ApiException(ApiErrorCode.WORKFLOW_RUN_NOT_CANCELLABLE, "workflow run " + runId
                                + " is " + cancel.run().status() + "; only a run that has not ended can be cancelled");
                    }
                    return RestResponse.accepted(WorkflowRunView.of(cancel.run()));
                });
    }

    /** The run, or a failure with its 404 when there is none or the caller may not see its tenant. */
    private Uni<StoredRun> visible(UUID runId) {
        Caller caller = callers.current();
        return RestSupport.visible(runs.find(runId), found -> caller.sees(found.tenant()), () -> notFound(runId));
    }

    private static ApiException notFound(UUID runId) {
        return new ApiException(ApiErrorCode.WORKFLOW_RUN_NOT_FOUND, "no workflow run with id " + runId);
    }
}
