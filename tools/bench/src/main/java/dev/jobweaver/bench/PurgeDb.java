package dev.jobweaver.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.function.LongConsumer;

/**
 * The purge workload's JDBC connections to the API's and the scheduler's databases, apart from {@link PlatformDb}'s:
 * its counts scan a million rows, which must not hold up the completion watcher's lookups of the steady jobs.
 * Every statement is {@link PurgeSeed}'s.
 */
final class PurgeDb implements AutoCloseable {

    private final Connection api;
    private final Connection scheduler;

    /** Connects to both databases on {@code 127.0.0.1:port} as {@link PlatformDb#connect} does. */
    PurgeDb(int port) {
        try {
            this.api = PlatformDb.connect(port, "jobweaver_api");
            this.scheduler = PlatformDb.connect(port, "jobweaver_scheduler");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the platform's PostgreSQL on 127.0.0.1:" + port + ": "
                    + PlatformDb.explain(e), e);
        }
    }

    /**
     * Seeds {@code count} finished jobs of {@code tenant} into both databases, a {@link PurgeSeed#CHUNK} per
     * transaction in each (the API's jobs and their attempts in one), then analyzes the tables; {@code progress}
     * hears the rows seeded so far.
     */
    void seed(String tenant, long count, LongConsumer progress) {
        String prefix = PurgeSeed.idPrefix(tenant);
        long ago = PurgeSeed.FINISHED_AGO.toSeconds();
        try {
            api.setAutoCommit(false);
            scheduler.setAutoCommit(false);
            try (PreparedStatement jobs = api.prepareStatement(PurgeSeed.API_JOBS);
                 PreparedStatement attempts = api.prepareStatement(PurgeSeed.API_ATTEMPTS);
                 PreparedStatement executions = scheduler.prepareStatement(PurgeSeed.SCHEDULER_JOBS)) {
                long done = 0;
                for (PurgeSeed.Chunk chunk : PurgeSeed.chunks(count, PurgeSeed.CHUNK)) {
                    set(jobs, prefix, tenant, chunk, ago);
                    jobs.executeUpdate();
                    attempts.setString(1, prefix);
                    attempts.setLong(2, chunk.first());
                    attempts.setLong(3, chunk.last());
                    attempts.setLong(4, ago);
                    attempts.executeUpdate();
                    api.commit();
                    set(executions, prefix, tenant, chunk, ago);
                    executions.executeUpdate();
                    scheduler.commit();
                    done += chunk.size();
                    progress.accept(done);
                }
            } finally {
                api.setAutoCommit(true);
                scheduler.setAutoCommit(true);
            }
            try (var a = api.createStatement(); var s = scheduler.createStatement()) {
                // the planner must know the million rows before the purge's walk and the steady jobs' statements run
                a.execute("ANALYZE jobs");
                a.execute("ANALYZE job_attempts");
                s.execute("ANALYZE job_executions");
            }
        } catch (SQLException e) {
            throw new IllegalStateException("seeding the purge workload's jobs failed: " + PlatformDb.explain(e), e);
        }
    }

    private static void set(PreparedStatement insert, String prefix, String tenant, PurgeSeed.Chunk chunk, long ago)
            throws SQLException {
        insert.setString(1, prefix);
        insert.setString(2, tenant);
        insert.setLong(3, chunk.first());
        insert.setLong(4, chunk.last());
        insert.setLong(5, ago);
    }

    /** Rows of {@code tenant} left in the API's {@code jobs}. */
    long apiLeft(String tenant) {
        return count(api, PurgeSeed.API_LEFT, tenant);
    }

    /** Rows of {@code tenant} left in the scheduler's {@code job_executions}. */
    long schedulerLeft(String tenant) {
        return count(scheduler, PurgeSeed.SCHEDULER_LEFT, tenant);
    }

    /** The seeded jobs' attempt rows left in the API. */
    long attemptsLeft(String tenant, long count) {
        try (PreparedStatement select = api.prepareStatement(PurgeSeed.API_ATTEMPTS_LEFT)) {
            select.setString(1, PurgeSeed.idPrefix(tenant));
            select.setLong(2, count);
            return single(select);
        } catch (SQLException e) {
            throw new IllegalStateException("counting the seeded attempts failed: " + PlatformDb.explain(e), e);
        }
    }

    /** {@link PurgeSeed#API_OTHERS}, then {@link PurgeSeed#SCHEDULER_OTHERS}. */
    long[] others(String tenant, Instant finishedAfter, Instant createdBefore) {
        return new long[] {count(api, PurgeSeed.API_OTHERS, tenant, finishedAfter, createdBefore),
                count(scheduler, PurgeSeed.SCHEDULER_OTHERS, tenant, finishedAfter, createdBefore)};
    }

    private static long count(Connection connection, String sql, String tenant, Instant... instants) {
        try (PreparedStatement select = connection.prepareStatement(sql)) {
            select.setString(1, tenant);
            for (int i = 0; i < instants.length; i++) {
                select.setTimestamp(i + 2, Timestamp.from(instants[i]));
            }
            return single(select);
        } catch (SQLException e) {
            throw new IllegalStateException("counting rows failed (" + sql + "): " + PlatformDb.explain(e), e);
        }
    }

    private static long single(PreparedStatement select) throws SQLException {
        try (ResultSet rs = select.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Override
    public void close() {
        for (Connection c : new Connection[] {api, scheduler}) {
            try {
                c.close();
            } catch (SQLException e) {
                // closing: nothing left to tell
            }
        }
    }
}
