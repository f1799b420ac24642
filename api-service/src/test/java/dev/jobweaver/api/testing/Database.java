package dev.jobweaver.api.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import org.eclipse.microprofile.config.ConfigProvider;

/** A JDBC connection to the service's database, for tests that arrange or inspect rows directly. */
public final class Database {

    private Database() {
    }

    /** A new connection; close it. */
    public static Connection connect() throws SQLException {
        var config = ConfigProvider.getConfig();
        return DriverManager.getConnection(config.getValue("quarkus.datasource.jdbc.url", String.class),
                config.getValue("quarkus.datasource.username", String.class),
                config.getValue("quarkus.datasource.password", String.class));
    }

    /** Whether {@code sql}, its one parameter {@code param}, finds a row. */
    public static boolean hasRow(String sql, Object param) throws SQLException {
        return query(sql, param, ResultSet::next);
    }

    /** The first column of the first row {@code sql} finds, its one parameter {@code param}, as text; null for none. */
    public static String firstString(String sql, Object param) throws SQLException {
        return query(sql, param, rs -> rs.next() ? rs.getString(1) : null);
    }

    /** The first column of the first row {@code sql} finds, its one parameter {@code param}, as a number; -1 for none. */
    public static long firstLong(String sql, Object param) throws SQLException {
        return query(sql, param, rs -> rs.next() ? rs.getLong(1) : -1);
    }

    /** How many rows {@code table} holds. */
    public static long count(String table) throws SQLException {
        try (Connection db = connect(); Statement query = db.createStatement();
             ResultSet rs = query.executeQuery("SELECT count(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** What {@code sql} finds, read by {@code reader}. */
    @FunctionalInterface
    private interface Reader<T> {
        T read(ResultSet rs) throws SQLException;
    }

    private static <T> T query(String sql, Object param, Reader<T> reader) throws SQLException {
        try (Connection db = connect(); PreparedStatement query = db.prepareStatement(sql)) {
            query.setObject(1, param);
            try (ResultSet rs = query.executeQuery()) {
                return reader.read(rs);
            }
        }
    }

    /**
     * Makes the database refuse, for good, every write of a job whose {@code last_error} is {@code lastError} (a CHECK
     * constraint: SQL state 23514), until closed. Nothing the event rules let through is refused by the read model's
     * columns, so this is how a test gets a status that passes the rules and that the database still refuses.
     */
    public static AutoCloseable refuseLastError(String lastError) throws SQLException {
        String constraint = "test_refuses_" + UUID.randomUUID().toString().replace("-", "");
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            // NOT VALID: existing rows are not checked, only the rows written from now on
            statement.execute("ALTER TABLE jobs ADD CONSTRAINT " + constraint + " CHECK (last_error IS DISTINCT FROM '"
                    + lastError.replace("'", "''") + "') NOT VALID");
        }
        return () -> {
            try (Connection connection = connect(); Statement statement = connection.createStatement()) {
                statement.execute("ALTER TABLE jobs DROP CONSTRAINT " + constraint);
            }
        };
    }

    /** What runs while the database refuses a {@code last_error}: a test given that {@code lastError}. */
    @FunctionalInterface
    public interface WithRefusedLastError {
        void run(String lastError) throws Exception;
    }

    /** Runs {@code test} while the database refuses ({@link #refuseLastError}) a {@code last_error} of its own. */
    public static void whileRefusingALastError(WithRefusedLastError test) throws Exception {
        String lastError = "refused by the database " + UUID.randomUUID();
        try (AutoCloseable refusing = refuseLastError(lastError)) {
            test.run(lastError);
        }
    }
}
