package dev.jobweaver.api.workflow;

import dev.jobweaver.common.workflow.WorkflowRunStatus;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * What the workflow runs owe those subscribed to their workflow, inside the transaction that applies the scheduler's
 * progress: the webhook subscriptions to a workflow hear of each run that ends. Declared here and implemented by the
 * notifications, so that a run need not know who follows it.
 */
public interface RunSubscribers {

    /**
     * A run that has just ended: the progress event that moved it to an end (a retried run ends again, at a newer
     * version).
     *
     * @param version the progress version that ended it
     * @param changedAt when the scheduler reported it
     */
    record RunEnded(UUID runId, UUID workflowId, WorkflowRunStatus status, long version, String traceId,
                    Instant changedAt, Instant finishedAt) {
    }

    /**
     * Records the notifications of {@code ended} on {@code transaction} (the connection that applies the progress, so
     * that both commit or neither); how many were recorded. Idempotent: the same end recorded again records nothing.
     * Runs on the caller's Vert.x context and never blocks.
     */
    Uni<Integer> runsEnded(SqlClient transaction, List<RunEnded> ended);

    /** After the commit of {@link #runsEnded}: the notifications may be sent at once. Never blocks. */
    void runsCommitted();
}
