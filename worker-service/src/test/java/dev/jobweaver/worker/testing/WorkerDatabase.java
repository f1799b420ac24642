package dev.jobweaver.worker.testing;

import dev.jobweaver.local.LocalStack;
import dev.jobweaver.local.Postgres;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import java.util.UUID;

/**
 * The worker's database on the shared PostgreSQL, over JDBC: what a test of the executable reads it with, as it has no
 * bean of the service to inject.
 */
public final class WorkerDatabase {

    /** The database the worker's tests run against ({@code @JobWeaverTest}). */
    public static final String NAME = "jobweaver_worker";

    /** The columns of an {@code execution_attempts} row that the tests assert on. */
    public record AttemptRow(String outcome, String errorMessage, String workerId, String result) {
    }

    private WorkerDatabase() {
    }

    /** A fresh connection; the caller closes it. */
    public static Connection connect() throws SQLException {
        return DriverManager.getConnection(LocalStack.shared().postgres().jdbcUrl(NAME), Postgres.USER,
                Postgres.PASSWORD);
    }

    /** The one row of run {@code eventId}; fails the test if there is none. */
    public static AttemptRow attempt(UUID eventId) {
        return find(eventId).orElseThrow(() -> new AssertionError("no row for run " + eventId));
    }

    /** The row of run {@code eventId}, if the worker stored one. */
    public static Optional<AttemptRow> find(UUID eventId) {
        try (Connection connection = connect();
             PreparedStatement select = connection.prepareStatement(
                     "SELECT outcome, error_message, worker_id, result::text FROM execution_attempts WHERE event_id = ?")) {
            select.setObject(1, eventId);
            try (ResultSet rows = select.executeQuery()) {
                return rows.next() ? Optional.of(new AttemptRow(rows.getString(1), rows.getString(2),
                        rows.getString(3), rows.getString(4))) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not read the row of run " + eventId, e);
        }
    }
}
