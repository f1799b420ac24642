package dev.jobweaver.api.workflow;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;

/** The {@link WorkflowVersion} entities, with Hibernate Reactive Panache, in the caller's reactive session. */
@ApplicationScoped
public class WorkflowVersionRepository implements PanacheRepositoryBase<WorkflowVersion, WorkflowVersion.Key> {

    /** The version of the workflow; null when it has none such. */
    public Uni<WorkflowVersion> find(UUID workflowId, int version) {
        return find("workflowId = ?1 and version = ?2", workflowId, version).firstResult();
    }
}
