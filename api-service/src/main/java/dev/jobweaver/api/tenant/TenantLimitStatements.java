package dev.jobweaver.api.tenant;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;

/**
 * The writes of {@code tenant_limits}, with the reactive PostgreSQL client: each change is one statement that takes
 * the row's lock and counts its version, so two requests for the same tenant, even the first two, never collide (an
 * entity session would read, then insert, and one of two first requests would fail on the primary key); and the
 * acknowledgements, which run from Kafka's callbacks, outside any request.
 */
@ApplicationScoped
public class TenantLimitStatements {

    private static final String SET = """
            INSERT INTO tenant_limits (tenant, max_running, version, published_version, updated_at)
            VALUES ($1, $2, 1, 0, now())
            ON CONFLICT (tenant) DO UPDATE
            SET max_running = EXCLUDED.max_running, version = tenant_limits.version + 1, updated_at = now()
            RETURNING version, updated_at
            """;

    /** Only a limit that is set: removing none changes nothing and publishes nothing. */
    private static final String REMOVE = """
            UPDATE tenant_limits SET max_running = NULL, version = version + 1, updated_at = now()
            WHERE tenant = $1 AND max_running IS NOT NULL
            RETURNING version, updated_at
            """;

    /**
     * {@code <=}, not {@code <}: a refresh publishes the version already acknowledged and must move
     * {@code published_at}; an acknowledgement older than one already recorded changes nothing.
     */
    private static final String PUBLISHED = """
            UPDATE tenant_limits SET published_version = $2, published_at = now()
            WHERE tenant = $1 AND published_version <= $2
            """;

    /** A stored change: the version it made and when. */
    public record Change(long version, Instant updatedAt) {
    }

    @Inject Pool pool;

    /** Sets the tenant's limit, creating its row or counting its next version. */
    public Uni<Change> set(String tenant, int maxRunning) {
        return pool.preparedQuery(SET).execute(Tuple.of(tenant, maxRunning)).map(TenantLimitStatements::change);
    }

    /** Removes the tenant's limit; null when it had none. */
    public Uni<Change> remove(String tenant) {
        return pool.preparedQuery(REMOVE).execute(Tuple.of(tenant)).map(TenantLimitStatements::change);
    }

    /** Records that Kafka acknowledged {@code version} of the tenant's limit; true if the row moved. */
    public Uni<Boolean> published(String tenant, long version) {
        return pool.preparedQuery(PUBLISHED).execute(Tuple.of(tenant, version)).map(rows -> rows.rowCount() > 0);
    }

    private static Change change(RowSet<Row> rows) {
        var it = rows.iterator();
        if (!it.hasNext()) {
            return null;
        }
        Row row = it.next();
        return new Change(row.getLong("version"), row.getOffsetDateTime("updated_at").toInstant());
    }
}
