package dev.jobweaver.api.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.api.hook.WorkflowStarter;
import io.opentelemetry.context.Context;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.UUID;

/**
 * Starts the workflow runs of inbound hooks: the hook's request id becomes the run's id, so a signed call repeated
 * within its time window finds the run the first call started and answers it again, instead of starting another.
 */
@ApplicationScoped
public class HookWorkflowStarter implements WorkflowStarter {

    @Inject WorkflowService workflows;
    @Inject WorkflowRunService runs;

    @Override
    public Uni<String> tenantOf(UUID workflowId) {
        return workflows.find(workflowId, null).map(found -> found == null ? null : found.tenant());
    }

    /**
     * Runs on the request's event loop, like the rest of the reactive stack. A bad input (larger than a run takes)
     * fails with the service's {@link IllegalArgumentException}, which the API answers as a 400 naming it.
     */
    @Override
    public Uni<Started> start(UUID workflowId, JsonNode input, UUID requestId, String traceparent) {
        return runs.start(requestId, workflowId, input, Context.current(), traceparent).map(run -> {
            if (run == null) {
                throw new WorkflowNotFoundException(workflowId);
            }
            return new Started(run.runId(), run.traceId());
        });
    }
}
