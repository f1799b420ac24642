package dev.jobweaver.e2e.support;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** What each service's own database holds of a job, read directly, as an operator checking a deletion would. */
public final class Stores {

    private Stores() {
    }

    /** Rows of {@code jobId} in the API's read model, the scheduler's table and the workers' attempts, in that order. */
    public static List<Integer> rowsOf(UUID jobId) {
        List<Integer> rows = new ArrayList<>();
        rows.add(count("jobweaver_api", "SELECT count(*) FROM jobs WHERE id = ?", jobId));
        rows.add(count("jobweaver_scheduler", "SELECT count(*) FROM job_executions WHERE job_id = ?", jobId));
        rows.add(count("jobweaver_worker", "SELECT count(*) FROM execution_attempts WHERE job_id = ?", jobId));
        return rows;
    }

    /** The workers' attempts of {@code jobId}: outcome and error message, oldest first. */
    public static List<String> attemptsOf(UUID jobId) {
        List<String> attempts = new ArrayList<>();
        try (Connection c = E2ePlatform.database("jobweaver_worker");
             PreparedStatement query = c.prepareStatement("SELECT outcome, coalesce(error_message, '') FROM "
                     + "execution_attempts WHERE job_id = ? ORDER BY attempt")) {
            query.setObject(1, jobId);
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    attempts.add(rs.getString(1) + " " + rs.getString(2));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not read execution_attempts", e);
        }
        return attempts;
    }

    private static int count(String database, String sql, UUID jobId) {
        try (Connection c = E2ePlatform.database(database); PreparedStatement query = c.prepareStatement(sql)) {
            query.setObject(1, jobId);
            try (ResultSet rs = query.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not read " + database, e);
        }
    }
}
