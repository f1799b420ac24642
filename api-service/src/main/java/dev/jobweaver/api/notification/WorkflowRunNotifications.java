package dev.jobweaver.api.notification;

import dev.jobweaver.api.workflow.RunSubscribers;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The subscriptions' side of the progress of workflow runs: a run's end ({@code workflow.completed},
 * {@code workflow.failed}, {@code workflow.cancelled}) becomes a delivery to each subscription to its workflow that
 * wants it, in the transaction that applies the progress, through the same pipeline as jobs' changes (the sender,
 * its retries and its give-up).
 */
@ApplicationScoped
class WorkflowRunNotifications implements RunSubscribers {

    private final DeliveryStore store;
    private final DeliveryIntake deliveries;

    WorkflowRunNotifications(DeliveryStore store, DeliveryIntake deliveries) {
        this.store = store;
        this.deliveries = deliveries;
    }

    @Override
    public Uni<Integer> runsEnded(SqlClient transaction, List<RunEnded> ended) {
        List<DeliveryStore.RunEnd> ends = new ArrayList<>(ended.size());
        for (RunEnded run : ended) {
            NotificationEvent event = NotificationEvent.ofRun(run.status());
            if (event != null) {
                ends.add(new DeliveryStore.RunEnd(run.runId(), run.workflowId(), event.wireName(),
                        run.status().name(), run.version(), run.traceId(),
                        run.changedAt() != null ? run.changedAt() : Instant.now(), run.finishedAt()));
            }
        }
        return store.insertForRuns(transaction, ends, Instant.now());
    }

    @Override
    public void runsCommitted() {
        deliveries.wake();
    }
}
