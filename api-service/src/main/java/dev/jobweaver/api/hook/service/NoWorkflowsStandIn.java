package dev.jobweaver.api.hook.service;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.arc.DefaultBean;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;

/**
 * STAND-IN, to be deleted: the {@link WorkflowStarter} of an API that has no workflows. Every workflow is "not found",
 * so a hook cannot be created for a workflow (400) and none is ever started. It pretends nothing; it exists only
 * because the application needs a bean until the workflows service provides the real starter. As a
 * {@link DefaultBean}, it also steps aside by itself once another {@code WorkflowStarter} bean exists.
 */
@DefaultBean
@ApplicationScoped
public class NoWorkflowsStandIn implements WorkflowStarter {

    @Override
    public Uni<Boolean> exists(UUID workflowId) {
        return Uni.createFrom().item(false);
    }

    @Override
    public Uni<Started> start(UUID workflowId, JsonNode input, UUID requestId, String traceparent) {
        return Uni.createFrom().failure(new WorkflowNotFoundException(workflowId));
    }
}
