package dev.jobweaver.api.workflow;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.quarkus.panache.common.Page;
import io.quarkus.panache.common.Parameters;
import io.quarkus.panache.common.Sort;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** The {@link WorkflowRun} entities, with Hibernate Reactive Panache, in the caller's reactive session. */
@ApplicationScoped
public class WorkflowRunRepository implements PanacheRepositoryBase<WorkflowRun, UUID> {

    /**
     * The runs the republisher must publish: changed before {@code :settledBefore} (a younger ask is the publish after
     * its commit's to send) and with asks Kafka has not acknowledged. A start and a cancel set {@code updatedAt}
     * ({@link WorkflowRunService}), and so does each progress applied ({@link WorkflowProgressStore}), which holds an
     * unacknowledged cancel back until the run has been still for a round, at the latest until it ends.
     */
    private static final String DUE = "updatedAt < :settledBefore and publishedVersion < changeVersion";

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

    /** At most {@code limit} runs the republisher must publish ({@link #DUE}), oldest change first. */
    public Uni<List<WorkflowRun>> toRepublish(Instant settledBefore, int limit) {
        return find(DUE, Sort.ascending("updatedAt"), Parameters.with("settledBefore", settledBefore))
                .page(Page.ofSize(limit)).list();
    }
}
