package dev.jobweaver.bench.chaos;

import static dev.jobweaver.bench.IdChunks.instant;

import dev.jobweaver.bench.IdChunks;
import dev.jobweaver.bench.PlatformDb;
import dev.jobweaver.local.Postgres;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Reads what the platform's three databases hold about a run's jobs (table and column names as in the services'
 * Flyway migrations). A connection per call: PostgreSQL may have been killed and started again since the last one.
 */
final class ChaosDb {

    private static final String JOBS = "SELECT id, status, created_at FROM jobs WHERE id = ANY(?)";
    private static final String EXECUTIONS = "SELECT job_id, job_status FROM job_executions WHERE job_id = ANY(?)";

    private final int port;

    /** The databases of the PostgreSQL on {@code 127.0.0.1:port}. */
    ChaosDb(int port) {
        this.port = port;
    }

    /** The ids among {@code ids} whose job the API reports as ended. */
    Set<UUID> terminal(Collection<UUID> ids) {
        Set<UUID> done = new HashSet<>();
        query("jobweaver_api", PlatformDb.TERMINAL, ids, rs -> done.add(rs.getObject(1, UUID.class)));
        return done;
    }

    /** What the three databases say about each of {@code ids}; a job none of them knows is absent. */
    Map<UUID, JobState> states(Collection<UUID> ids) {
        Map<UUID, String> api = new HashMap<>();
        Map<UUID, Instant> acceptedAt = new HashMap<>();
        query("jobweaver_api", JOBS, ids, rs -> {
            UUID id = rs.getObject("id", UUID.class);
            api.put(id, rs.getString("status"));
            acceptedAt.put(id, instant(rs, "created_at"));
        });
        Map<UUID, String> scheduler = new HashMap<>();
        query("jobweaver_scheduler", EXECUTIONS, ids,
                rs -> scheduler.put(rs.getObject("job_id", UUID.class), rs.getString("job_status")));
        Map<UUID, Integer> runs = new HashMap<>();
        Map<UUID, Instant> firstStart = new HashMap<>();
        query("jobweaver_worker", PlatformDb.EXECUTIONS, ids, rs -> {
            UUID id = rs.getObject("job_id", UUID.class);
            runs.put(id, rs.getInt("runs"));
            firstStart.put(id, instant(rs, "first_start"));
        });
        Map<UUID, JobState> states = new HashMap<>();
        for (UUID id : ids) {
            if (api.containsKey(id) || scheduler.containsKey(id) || runs.containsKey(id)) {
                states.put(id, new JobState(api.get(id), acceptedAt.get(id), scheduler.get(id),
                        runs.getOrDefault(id, 0), firstStart.get(id)));
            }
        }
        return states;
    }

    private void query(String database, String sql, Collection<UUID> ids, IdChunks.RowHandler handler) {
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/" + database,
                Postgres.USER, Postgres.PASSWORD)) {
            IdChunks.query(c, sql, ids, handler);
        } catch (SQLException e) {
            throw new IllegalStateException("reading " + database + " failed: " + e.getMessage(), e);
        }
    }
}
