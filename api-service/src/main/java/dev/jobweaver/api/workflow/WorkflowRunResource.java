package dev.jobweaver.api.workflow;

import dev.jobweaver.api.job.PublishFailedException;
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

/** {@code /api/workflow-runs}: a workflow run's state, as the scheduler last reported it, its cancel and retry. */
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

    @POST
    @Path("{runId}/retry")
    @Operation(summary = "Retry a failed or cancelled workflow run", description = "202 with the run once Kafka"
            + " acknowledged the retry; the scheduler runs the run's failed and cancelled nodes again (and the nodes"
            + " that depend on them), each node's job under its own id with its attempts numbered on, and the run"
            + " shows RUNNING under the same runId once it reported so. No request body.")
    @APIResponse(responseCode = "202", content = @Content(schema = @Schema(implementation = WorkflowRunView.class)))
    @APIResponse(responseCode = "409", description = "the run has not ended FAILED or CANCELLED"
            + " (API.WORKFLOW_RUN_NOT_RETRYABLE)")
    @APIResponse(responseCode = "503", description = "Kafka did not acknowledge the retry in time, or the database is"
            + " unavailable (API.SERVICE_UNAVAILABLE); nothing changed, retry later")
    @RolesAllowed(Roles.OPERATOR)
    public Uni<RestResponse<WorkflowRunView>> retry(
            @Parameter(description = "the run's UUID") @PathParam("runId") String id) {
        UUID runId = rest.uuid("runId", id);
        // the run's tenant is checked before the retry is asked; a run's tenant never changes
        // Kafka's silence is told apart from the database's, before the outage mapping sees it
        return rest.unavailableOnOutage(visible(runId).chain(found -> runs.retry(runId)
                        .onFailure(PublishFailedException.class).transform(e -> new ApiException(
                                ApiErrorCode.SERVICE_UNAVAILABLE, "the retry of workflow run " + runId + " was not"
                                + " acknowledged by Kafka in time (" + e.getMessage() + "); the run is as it was,"
                                + " retry later", null, rest.retryAfter()))),
                        "the retry could not be asked")
                .map(found -> {
                    WorkflowRunService.Retry retry = RestSupport.found(found, () -> notFound(runId));
                    if (!retry.asked()) {
                        throw new ApiException(ApiErrorCode.WORKFLOW_RUN_NOT_RETRYABLE, "workflow run " + runId
                                + " is " + retry.run().status() + "; only a run that ended FAILED or CANCELLED can be"
                                + " retried");
                    }
                    return RestResponse.accepted(WorkflowRunView.of(retry.run()));
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
