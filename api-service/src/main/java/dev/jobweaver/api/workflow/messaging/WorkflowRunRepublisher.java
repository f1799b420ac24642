package dev.jobweaver.api.workflow.messaging;

import dev.jobweaver.api.workflow.config.WorkflowConfig;
import dev.jobweaver.api.workflow.persistence.WorkflowRun;
import dev.jobweaver.api.workflow.persistence.WorkflowRunRepository;
import dev.jobweaver.api.workflow.persistence.WorkflowVersion;
import dev.jobweaver.api.workflow.persistence.WorkflowVersionRepository;
import dev.jobweaver.api.web.messaging.RowOutbox;
import dev.jobweaver.api.workflow.service.RunAsks;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Publishes the asks of runs that the publish after each commit did not get acknowledged (a crash or an outage between
 * the commit and the acknowledgement: {@code published_version < change_version}).
 *
 * <p>Every API instance runs it, without coordination: two instances may publish the same ask, which the scheduler
 * takes once, and record it with a guarded update that never moves a row backwards. No row is locked while Kafka
 * answers. Runs on a Vert.x event loop (a {@code Uni} method of the scheduler), never concurrently with itself; the
 * rounds are {@link RowOutbox#republishAll}.
 */
@ApplicationScoped
public class WorkflowRunRepublisher {

    private static final Logger LOG = Logger.getLogger(WorkflowRunRepublisher.class);

    private final WorkflowRunRepository runs;
    private final WorkflowVersionRepository versions;
    private final WorkflowRunPublisher publisher;
    private final WorkflowConfig config;

    public WorkflowRunRepublisher(WorkflowRunRepository runs, WorkflowVersionRepository versions,
                                  WorkflowRunPublisher publisher, WorkflowConfig config) {
        this.runs = runs;
        this.versions = versions;
        this.publisher = publisher;
        this.config = config;
    }

    @Scheduled(every = "${jobweaver.api.workflows.republish-interval:5s}", delay = 1, delayUnit = TimeUnit.SECONDS,
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP, identity = "workflow-run-republisher",
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> scheduledRound() {
        return republishAll()
                .onFailure().invoke(e -> LOG.warnf("workflow run republish failed: %s", e.getMessage()))
                .onFailure().recoverWithNull()
                .replaceWithVoid();
    }

    /** Rounds until one finds less than a full batch; how many runs they published. */
    public Uni<Integer> republishAll() {
        return RowOutbox.republishAll(LOG, "workflow run(s)", config.republishBatchSize(), this::round, this::publish);
    }

    /** The runs due, with their asks, read in a session of their own. */
    @WithSession
    Uni<List<RunAsks>> round() {
        return runs.toRepublish(config.republishBatchSize()).chain(rows -> {
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

    private Uni<Void> publish(RunAsks asks) {
        return publisher.publish(asks).onFailure().invoke(e -> LOG.debugf(
                "workflow run %s not republished: %s", asks.runId(), e.getMessage()));
    }
}
