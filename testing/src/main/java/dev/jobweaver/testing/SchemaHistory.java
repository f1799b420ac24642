package dev.jobweaver.testing;

import dev.jobweaver.common.schema.SchemaGuard;
import dev.jobweaver.common.schema.SchemaVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;

/**
 * A service's Flyway history, read over JDBC, judged as {@link SchemaGuard} judges it at start-up: against the
 * {@value SchemaGuard#VERSION} of the service's own {@code application.properties}, so a test of a migrated
 * executable needs no edit when a migration is added.
 */
public final class SchemaHistory {

    private SchemaHistory() {
    }

    /** The verdict of {@code database}'s history, read on {@code connection}, against the build's version. */
    public static SchemaVersion.Verdict verdict(Connection connection, String database) throws SQLException {
        List<SchemaVersion.HistoryRow> rows = new ArrayList<>();
        try (Statement query = connection.createStatement();
             ResultSet history = query.executeQuery(
                     "SELECT version, success FROM flyway_schema_history WHERE version IS NOT NULL")) {
            while (history.next()) {
                rows.add(new SchemaVersion.HistoryRow(history.getString(1), history.getBoolean(2)));
            }
        }
        return SchemaVersion.of(database, rows).against(requiredVersion());
    }

    /**
     * {@value SchemaGuard#VERSION} from the {@code application.properties} on the test's class path, or else from a
     * {@code META-INF/microprofile-config.properties} there (the worker runtime declares its own schema's version).
     */
    static String requiredVersion() {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        try {
            String version = declared(loader.getResource("application.properties"));
            var sources = Collections.list(loader.getResources("META-INF/microprofile-config.properties")).iterator();
            while (version == null && sources.hasNext()) {
                version = declared(sources.next());
            }
            if (version == null) {
                throw new IllegalStateException(SchemaGuard.VERSION + " is set neither in application.properties nor"
                        + " in a META-INF/microprofile-config.properties on the class path");
            }
            return version;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The version {@code source} declares, or null (also for no source). */
    private static String declared(URL source) throws IOException {
        if (source == null) {
            return null;
        }
        Properties properties = new Properties();
        try (InputStream in = source.openStream()) {
            properties.load(in);
        }
        String version = properties.getProperty(SchemaGuard.VERSION);
        return version == null || version.isBlank() ? null : version.strip();
    }
}
