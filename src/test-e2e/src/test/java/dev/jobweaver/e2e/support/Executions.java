package dev.jobweaver.e2e.support;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
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
        return countPerJob("", jobIds);
    }

    /** Executions that ended in SUCCESS per job, for the given jobs (0 for none). */
    public static Map<UUID, Integer> completedPerJob(Collection<UUID> jobIds) {
        return countPerJob(" AND outcome = 'SUCCESS'", jobIds);
    }

    private static Map<UUID, Integer> countPerJob(String condition, Collection<UUID> jobIds) {
        Map<UUID, Integer> counts = new HashMap<>();
        jobIds.forEach(id -> counts.put(id, 0));
        try (Connection c = E2ePlatform.database("jobweaver_worker");
             PreparedStatement query = c.prepareStatement("SELECT job_id, count(*) FROM execution_attempts"
                     + " WHERE job_id = ANY (?)" + condition + " GROUP BY job_id")) {
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
    public static Instant firstStart(UUID jobId) {
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

    /**
     * The time between each execution's finish and the next one's start, in the order they started: the job's retry
     * delays as the workers lived them, dispatch included.
     */
    public static List<Duration> gaps(UUID jobId) {
        List<Duration> gaps = new ArrayList<>();
        try (Connection c = E2ePlatform.database("jobweaver_worker");
             PreparedStatement query = c.prepareStatement(
                     "SELECT started_at, finished_at FROM execution_attempts WHERE job_id = ? ORDER BY started_at")) {
            query.setObject(1, jobId);
            try (ResultSet rs = query.executeQuery()) {
                Instant previousEnd = null;
                while (rs.next()) {
                    if (previousEnd != null) {
                        gaps.add(Duration.between(previousEnd, rs.getTimestamp(1).toInstant()));
                    }
                    java.sql.Timestamp end = rs.getTimestamp(2);
                    previousEnd = end == null ? null : end.toInstant();
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not read execution_attempts", e);
        }
        return gaps;
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
