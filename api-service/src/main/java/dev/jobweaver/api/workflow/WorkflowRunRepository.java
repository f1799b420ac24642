package dev.jobweaver.api.workflow;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.quarkus.panache.common.Page;
import io.quarkus.panache.common.Sort;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import java.util.List;
import java.util.UUID;

/** The {@link WorkflowRun} entities, with Hibernate Reactive Panache, in the caller's reactive session. */
@ApplicationScoped
public class WorkflowRunRepository implements PanacheRepositoryBase<WorkflowRun, UUID> {

    /** The run, its row locked until the transaction ends; null when there is none. */
    public Uni<WorkflowRun> findForUpdate(UUID id) {
        return find("id", id).withLock(LockModeType.PESSIMISTIC_WRITE).firstResult();
    }

    /** One page of the workflow's runs, newest first. */
    public Uni<List<WorkflowRun>> page(UUID workflowId, int page, int size) {
        return find("workflowId", Sort.descending("createdAt", "id"), workflowId).page(Page.of(page, size)).list();
    }

    /** How many runs the workflow has. */
    public Uni<Long> countOf(UUID workflowId) {
        return count("workflowId", workflowId);
    }

    /** At most {@code limit} runs whose asks Kafka has not acknowledged, oldest change first. */
    public Uni<List<WorkflowRun>> toRepublish(int limit) {
        return find("publishedVersion < changeVersion", Sort.ascending("updatedAt")).page(Page.ofSize(limit)).list();
    }
}
