package dev.jobweaver.api.workflow;

import dev.jobweaver.api.outbox.RowRepublisher;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Publishes the asks of runs that the publish after each commit did not get acknowledged (a crash or an outage between
 * the commit and the acknowledgement: {@code published_version < change_version}); a run changed within the last round
 * is left to its own publish ({@link RowRepublisher}).
 *
 * <p>Every API instance runs it, without coordination: two instances may publish the same ask, which the scheduler
 * takes once, and record it with a guarded update that never moves a row backwards. No row is locked while Kafka
 * answers. Its rounds are run by the outbox's republish loop, on a Vert.x event loop, never concurrently with
 * themselves ({@link RowRepublisher}).
 */
@ApplicationScoped
public class WorkflowRunRepublisher extends RowRepublisher<RunAsks> {

    private static final Logger LOG = Logger.getLogger(WorkflowRunRepublisher.class);

    @Inject WorkflowRunRepository runs;
    @Inject WorkflowVersionRepository versions;
    @Inject WorkflowRunPublisher publisher;
    @Inject WorkflowConfig config;

    WorkflowRunRepublisher() {
        super(LOG, "workflow run(s)");
    }

    @Override
    public Rounds rounds() {
        return new Rounds("workflow-run-republisher", config.republishInterval(), config.republishBatchSize());
    }

    /** The runs due, with their asks, read in a session of their own. */
    @Override
    @WithSession
    protected Uni<List<RunAsks>> due(Instant settledBefore) {
        return runs.toRepublish(settledBefore, config.republishBatchSize()).chain(rows -> {
            List<RunAsks> due = new ArrayList<>(rows.size());
            Uni<Void> chain = Uni.createFrom().voidItem();
            for (WorkflowRun row : rows) {
                // one after the other: a reactive session runs one statement at a time
                chain = chain.chain(() -> versions.find(row.workflowId, row.workflowVersion)
                        .invoke((WorkflowVersion version) -> due.add(RunAsks.of(row, version, row.publishedVersion)))
                        .replaceWithVoid());
            }
            return chain.map(ignored -> due);
        });
    }

    @Override
    protected Uni<Void> republish(RunAsks asks) {
        return publisher.publish(asks).onFailure().invoke(e -> LOG.debugf(
                "workflow run %s not republished: %s", asks.runId(), e.getMessage()));
    }
}
