package dev.jobweaver.api.workflow;

import dev.jobweaver.api.job.store.JsonColumns;
import dev.jobweaver.api.platform.db.Slice;
import dev.jobweaver.common.job.JobIds;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Stores workflows' definitions: each create or replace writes a new version, which is never changed after, so a run
 * keeps the version it started with. Called on the request's Vert.x event loop; the entity session and the transaction
 * are Hibernate Reactive's, opened by {@link Panache#withTransaction} on that context.
 */
@ApplicationScoped
public class WorkflowService {

    @Inject WorkflowRepository workflows;
    @Inject WorkflowVersionRepository versions;

    /** Stores a new workflow, version 1. */
    @WithSpan("create workflow")
    public Uni<StoredWorkflow> create(WorkflowDefinition definition) {
        Instant now = now();
        return Panache.withTransaction(() -> {
            Workflow workflow = new Workflow();
            workflow.id = JobIds.next();
            workflow.name = definition.name();
            workflow.tenant = definition.tenant();
            workflow.latestVersion = 1;
            workflow.createdAt = now;
            workflow.updatedAt = now;
            workflow.triggers = triggers(definition);
            WorkflowVersion version = version(workflow, definition, now);
            // the version references the workflow: the workflow's insert is flushed first
            return workflows.persistAndFlush(workflow).chain(() -> versions.persist(version))
                    .map(ignored -> StoredWorkflow.of(workflow, version));
        });
    }

    /**
     * The workflow at {@code version}, or at its latest when null; null when there is no such workflow (or it was
     * deleted) or no such version.
     */
    @WithSpan("find workflow")
    @WithSession
    public Uni<StoredWorkflow> find(UUID id, Integer version) {
        return workflows.findLive(id).chain(workflow -> {
            if (workflow == null || (version != null && (version < 1 || version > workflow.latestVersion))) {
                return Uni.createFrom().nullItem();
            }
            return versions.find(id, version == null ? workflow.latestVersion : version)
                    .map(found -> found == null ? null : StoredWorkflow.of(workflow, found));
        });
    }

    /** A page of workflows, newest first, of {@code tenant} or of every tenant (null), each at its latest version. */
    @WithSpan("list workflows")
    @WithSession
    public Uni<Slice<StoredWorkflow>> list(String tenant, int page, int size) {
        return workflows.page(tenant, page, size).chain(found -> {
            List<StoredWorkflow> listed = new ArrayList<>(found.size());
            Uni<Void> chain = Uni.createFrom().voidItem();
            for (Workflow workflow : found) {
                chain = chain.chain(() -> versions.find(workflow.id, workflow.latestVersion)
                        .invoke(version -> listed.add(StoredWorkflow.of(workflow, version))).replaceWithVoid());
            }
            return chain.chain(() -> workflows.countLive(tenant)).map(total -> new Slice<>(listed, total));
        });
    }

    /**
     * Stores {@code definition} as the workflow's next version, which new runs start with; runs already started keep
     * theirs. Null when there is no such workflow.
     */
    @WithSpan("replace workflow")
    public Uni<StoredWorkflow> replace(UUID id, WorkflowDefinition definition) {
        Instant now = now();
        return Panache.withTransaction(() -> workflows.findLiveForUpdate(id).chain(workflow -> {
            if (workflow == null) {
                return Uni.createFrom().nullItem();
            }
            workflow.latestVersion++;
            workflow.name = definition.name();
            workflow.tenant = definition.tenant();
            workflow.updatedAt = now;
            workflow.triggers = triggers(definition);
            WorkflowVersion version = version(workflow, definition, now);
            return versions.persist(version).map(ignored -> StoredWorkflow.of(workflow, version));
        }));
    }

    /**
     * Deletes the workflow: it is gone for clients and starts no run; runs in flight go on with their version. False
     * when there is no such workflow.
     */
    @WithSpan("delete workflow")
    public Uni<Boolean> delete(UUID id) {
        Instant now = now();
        return Panache.withTransaction(() -> workflows.deleteLive(id, workflow -> {
            workflow.deletedAt = now;
            workflow.updatedAt = now;
        }));
    }

    /** The definition's triggers as the row keeps them: null for none, which leaves the workflow out of the index. */
    private static String[] triggers(WorkflowDefinition definition) {
        return definition.triggers().isEmpty() ? null : definition.triggers().toArray(String[]::new);
    }

    private static WorkflowVersion version(Workflow workflow, WorkflowDefinition definition, Instant now) {
        WorkflowVersion version = new WorkflowVersion();
        version.workflowId = workflow.id;
        version.version = workflow.latestVersion;
        version.name = definition.name();
        version.nodes = JsonColumns.write(definition.nodes());
        version.maxConcurrency = definition.maxConcurrency();
        version.onFailure = definition.onFailure();
        version.createdAt = now;
        return version;
    }

    /** Now, to the microsecond the database keeps, so that what is answered is what a later read shows. */
    static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MICROS);
    }
}
