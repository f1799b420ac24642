package dev.jobweaver.e2e.support;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * How many times the workers started each job, read from the workers' {@code execution_attempts} table: the only
 * place that knows about executions a crash cut short.
 */
public final class Executions {

    private Executions() {
    }

    /** Executions started per job, for the given jobs (0 for a job never started). */
    public static Map<UUID, Integer> perJob(Collection<UUID> jobIds) {
        Map<UUID, Integer> counts = new HashMap<>();
        jobIds.forEach(id -> counts.put(id, 0));
        try (Connection c = E2ePlatform.database("jobweaver_worker");
             PreparedStatement query = c.prepareStatement(
                     "SELECT job_id, count(*) FROM execution_attempts WHERE job_id = ANY (?) GROUP BY job_id")) {
            query.setArray(1, c.createArrayOf("uuid", jobIds.toArray()));
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    counts.put(rs.getObject(1, UUID.class), rs.getInt(2));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not read execution_attempts", e);
        }
        return counts;
    }

    /** When the workers first started {@code jobId}, or null if they never did. */
    public static java.time.Instant firstStart(UUID jobId) {
        try (Connection c = E2ePlatform.database("jobweaver_worker");
             PreparedStatement query = c.prepareStatement(
                     "SELECT min(started_at) FROM execution_attempts WHERE job_id = ?")) {
            query.setObject(1, jobId);
            try (ResultSet rs = query.executeQuery()) {
                rs.next();
                java.sql.Timestamp first = rs.getTimestamp(1);
                return first == null ? null : first.toInstant();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not read execution_attempts", e);
        }
    }

    /** Of the given jobs, those with an execution recorded RUNNING and not finished: in flight on some worker now. */
    public static Set<UUID> inFlight(Collection<UUID> jobIds) {
        Set<UUID> running = new HashSet<>();
        try (Connection c = E2ePlatform.database("jobweaver_worker");
             PreparedStatement query = c.prepareStatement(
                     "SELECT DISTINCT job_id FROM execution_attempts WHERE job_id = ANY (?) AND outcome = 'RUNNING'")) {
            query.setArray(1, c.createArrayOf("uuid", jobIds.toArray()));
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    running.add(rs.getObject(1, UUID.class));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not read execution_attempts", e);
        }
        return running;
    }

    /** The jobs that were started more than once. */
    public static long duplicated(Map<UUID, Integer> perJob) {
        return perJob.values().stream().filter(n -> n > 1).count();
    }
}
