package dev.jobweaver.common.schema;

import io.quarkus.runtime.StartupEvent;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.sqlclient.DatabaseException;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import jakarta.interceptor.Interceptor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Refuses to start a service whose database schema is older than its build, with a message that names the fix.
 *
 * <p>Why it exists: the packaged services run without JDBC, so without Flyway (tools/launcher migrates them in a
 * separate start; see {@code application.properties}). A service started against a database nobody migrated would
 * otherwise take records from Kafka and fail each one on a missing table or column.
 *
 * <p>Guarantee: when the history table says the schema is older, empty, or half-migrated (a failed migration), the
 * start fails before any channel connects: this observer runs at {@link Interceptor.Priority#PLATFORM_BEFORE}, ahead
 * of SmallRye Reactive Messaging's start at {@code LIBRARY_BEFORE}. A newer schema only warns (a rolled-back
 * deployment; migrations only add). When the database cannot be reached the service starts anyway: readiness
 * reports the database, as it would for an outage later.
 *
 * <p>Thread: the start-up thread (main); it blocks for one query, at most {@link #TIMEOUT}. Where Flyway migrates as
 * the service starts (a JDBC URL is set: tests, Kubernetes), it has already run when this runs, and this passes.
 */
@Singleton
public class SchemaGuard {

    /** The newest migration of this service's build, e.g. {@code 2} for {@code V2__...sql}. */
    public static final String VERSION = "jobweaver.schema.version";

    /** One query on a local or nearby database; a longer wait means it is not reachable now. */
    static final Duration TIMEOUT = Duration.ofSeconds(10);

    private static final Logger LOG = Logger.getLogger(SchemaGuard.class);

    /** PostgreSQL's "undefined table": no Flyway history, so never migrated. */
    private static final String UNDEFINED_TABLE = "42P01";

    private final Pool pool;
    private final String required;
    private final String database;

    SchemaGuard(Pool pool, @ConfigProperty(name = VERSION) String required,
            @ConfigProperty(name = "quarkus.datasource.reactive.url") String url) {
        this.pool = pool;
        this.required = required;
        this.database = databaseOf(url);
    }

    void check(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE) StartupEvent started) {
        SchemaVersion schema;
        try {
            schema = read();
        } catch (RuntimeException e) {
            LOG.warnf("could not read the schema version of database %s (%s); starting anyway, readiness reports the"
                    + " database", database, e.getMessage());
            return;
        }
        SchemaVersion.Verdict verdict = schema.against(required);
        switch (verdict.status()) {
            case CURRENT -> LOG.debug(verdict.message());
            case AHEAD -> LOG.warn(verdict.message());
            case NOT_MIGRATED -> throw new IllegalStateException(verdict.message());
        }
    }

    /** The schema as the history table records it; empty when the table does not exist. */
    SchemaVersion read() {
        try {
            List<SchemaVersion.HistoryRow> rows = new ArrayList<>();
            for (Row row : pool.query("SELECT version, success FROM flyway_schema_history WHERE version IS NOT NULL")
                    .execute().await().atMost(TIMEOUT)) {
                rows.add(new SchemaVersion.HistoryRow(row.getString("version"), row.getBoolean("success")));
            }
            return SchemaVersion.of(database, rows);
        } catch (DatabaseException e) {
            if (UNDEFINED_TABLE.equals(e.getSqlState())) {
                return SchemaVersion.empty(database);
            }
            throw e;
        }
    }

    /** {@code jobweaver_api} from {@code postgresql://host:5432/jobweaver_api?opt=1}: for messages only. */
    static String databaseOf(String url) {
        String path = url.substring(url.lastIndexOf('/') + 1);
        int query = path.indexOf('?');
        return query < 0 ? path : path.substring(0, query);
    }
}
