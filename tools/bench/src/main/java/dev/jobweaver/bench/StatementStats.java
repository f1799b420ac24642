package dev.jobweaver.bench;

import dev.jobweaver.local.Postgres;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The platform's SQL statements during one workload, from PostgreSQL's {@code pg_stat_statements}, which a platform
 * started with {@code ./jobweaver up --sql-stats} keeps: {@link #reset()} before the workload, {@link #since} after it.
 *
 * <p>Only the services' statements count: the bench connects as {@link Postgres#TOOLS_USER}, another user id than the
 * services', and its rows are left out. What a workload's jobs cost is divided by the jobs the API stored over the
 * same window, so a workload's unreported settling period or a workflow's node jobs count as the jobs they are.
 *
 * <p>Not thread-safe: the bench calls it from its main thread, between workloads.
 */
final class StatementStats implements AutoCloseable {

    private static final String READ = "SELECT d.datname, s.query, s.calls, s.rows, s.total_exec_time, s.wal_bytes"
            + " FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid JOIN pg_roles r ON r.oid = s.userid"
            + " WHERE d.datname LIKE 'jobweaver%' AND r.rolname <> '" + Postgres.TOOLS_USER + "'";
    private static final String JOBS_SINCE = "SELECT count(*) FROM jobs WHERE created_at >= ?";

    private final Connection stats;
    private final Connection api;

    private StatementStats(Connection stats, Connection api) {
        this.stats = stats;
        this.api = api;
    }

    /**
     * The statistics of the server on {@code 127.0.0.1:port}, or empty when it keeps none (a platform started without
     * {@code --sql-stats}) or cannot be read.
     */
    static Optional<StatementStats> open(int port) {
        Connection stats = null;
        try {
            stats = PlatformDb.connect(port, "postgres");
            try (Statement probe = stats.createStatement()) {
                probe.executeQuery("SELECT 1 FROM pg_stat_statements LIMIT 1").close();
            }
            return Optional.of(new StatementStats(stats, PlatformDb.connect(port, "jobweaver_api")));
        } catch (SQLException e) {
            closeQuietly(stats);
            return Optional.empty();
        }
    }

    /** Forgets every statement counted so far, the whole server's. */
    void reset() {
        try (Statement s = stats.createStatement()) {
            s.execute("SELECT pg_stat_statements_reset()");
        } catch (SQLException e) {
            throw new IllegalStateException("resetting pg_stat_statements failed: " + PlatformDb.explain(e), e);
        }
    }

    /** The services' statements since the last {@link #reset()}, per job the API stored from {@code from} on. */
    StatementCosts since(Instant from) {
        List<StatementCosts.Row> rows = new ArrayList<>();
        try (Statement s = stats.createStatement(); ResultSet rs = s.executeQuery(READ)) {
            while (rs.next()) {
                rows.add(new StatementCosts.Row(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getLong(4),
                        rs.getDouble(5), rs.getDouble(6)));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("reading pg_stat_statements failed: " + PlatformDb.explain(e), e);
        }
        long jobs;
        try (PreparedStatement count = api.prepareStatement(JOBS_SINCE)) {
            count.setTimestamp(1, Timestamp.from(from));
            try (ResultSet rs = count.executeQuery()) {
                rs.next();
                jobs = rs.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("counting the jobs stored since " + from + " failed: "
                    + PlatformDb.explain(e), e);
        }
        return new StatementCosts(rows, jobs);
    }

    @Override
    public void close() {
        closeQuietly(stats);
        closeQuietly(api);
    }

    private static void closeQuietly(Connection c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (SQLException e) {
            // closing anyway
        }
    }
}
