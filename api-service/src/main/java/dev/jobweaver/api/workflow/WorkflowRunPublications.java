package dev.jobweaver.api.workflow;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;

/**
 * What Kafka acknowledged of a run's asks, written back to its row with the reactive PostgreSQL client: the statement
 * runs from Kafka's callback, outside any request, and touches two columns.
 */
@ApplicationScoped
public class WorkflowRunPublications {

    /** Guarded, so an acknowledgement older than one already recorded never moves the row backwards. */
    private static final String PUBLISHED = """
            UPDATE workflow_runs SET published_version = $2, published_at = now()
            WHERE id = $1 AND published_version < $2
            """;

    private final Pool pool;

    public WorkflowRunPublications(Pool pool) {
        this.pool = pool;
    }

    /** Records that Kafka acknowledged the run's asks up to {@code changeVersion}; true if the row moved. */
    public Uni<Boolean> published(UUID runId, int changeVersion) {
        return pool.preparedQuery(PUBLISHED).execute(Tuple.of(runId, changeVersion)).map(rows -> rows.rowCount() > 0);
    }
}
