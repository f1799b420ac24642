package dev.jobweaver.api.hook;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.api.platform.db.RowNotFoundException;
import io.smallrye.mutiny.Uni;
import java.util.UUID;

/**
 * Starts runs of workflows for hooks whose target is a workflow: the one thing the hook package needs of workflows, so
 * that it does not depend on how they are stored or run. Called on the request's Vert.x event loop; an implementation
 * must not block it.
 */
public interface WorkflowStarter {

    /** A run that was started: its id and the trace it is. */
    record Started(UUID runId, String traceId) {
    }

    /** The tenant of the workflow with this id, or null when there is none (read when a hook is created). */
    Uni<String> tenantOf(UUID workflowId);

    /**
     * Starts a run of the workflow with {@code input} as the run's input.
     *
     * @param requestId names this start: the hook derives it from its id and the call's signature, so a signed call
     *                  repeated within the time window passes the same id. An implementation that can fix a run's id
     *                  (or key its start) by it starts one run for both and answers that run again; one that cannot
     *                  starts a run per call.
     * @param traceparent the caller's W3C {@code traceparent}, to join the run to the caller's trace; null without one
     * @return the run, or a failure with {@link WorkflowNotFoundException} when there is no such workflow
     */
    Uni<Started> start(UUID workflowId, JsonNode input, UUID requestId, String traceparent);

    /** The workflow to start does not exist. */
    final class WorkflowNotFoundException extends RowNotFoundException {

        public WorkflowNotFoundException(UUID workflowId) {
            super("workflow not found: " + workflowId, workflowId);
        }
    }
}
