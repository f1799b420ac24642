package dev.jobweaver.bench;

import static dev.jobweaver.bench.IdChunks.instant;

import dev.jobweaver.local.Postgres;
import java.sql.Connection;
import java.sql.DriverManager;
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
import java.util.function.IntConsumer;

/**
 * Reads the timestamps the platform records, over JDBC from its PostgreSQL: {@code jobweaver_api.jobs},
 * {@code jobweaver_worker.execution_attempts} and, for the stage breakdown, {@code jobweaver_scheduler.job_executions}
 * (column names as in the services' Flyway migrations).
 */
public final class PlatformDb implements AutoCloseable {

    /** The ids of {@code jobweaver_api.jobs} among the array parameter whose job has ended. */
    public static final String TERMINAL = "SELECT id FROM jobs WHERE id = ANY(?)"
            + " AND status IN ('COMPLETED', 'FAILED', 'REJECTED')";
    private static final String JOBS = "SELECT id, status, attempts, created_at, finished_at, updated_at"
            + " FROM jobs WHERE id = ANY(?)";
    private static final String SCHEDULED = "SELECT job_id, ingested_at, dispatched_at FROM job_executions"
            + " WHERE job_id = ANY(?)";
    /** Per job of the array parameter, its {@code execution_attempts} rows ({@code runs}) and their first start. */
    public static final String EXECUTIONS = "SELECT job_id, count(*) AS runs, min(started_at) AS first_start"
            + " FROM execution_attempts WHERE job_id = ANY(?) GROUP BY job_id";
    private static final String BY_WORKER = "SELECT worker_id, count(*) AS runs FROM execution_attempts"
            + " WHERE job_id = ANY(?) GROUP BY worker_id";

    /**
     * The {@code job_type} of the rows the idle measurement inserts into the scheduler's table: no job type a client
     * can submit (the API refuses unknown types), so nothing else is ever deleted with them.
     */
    static final String IDLE_MARKER = "JOBWEAVER_BENCH_IDLE_ROW";
    /** Idle rows per insert transaction. */
    static final int IDLE_BATCH = 100_000;

    private static final String RUN_AT = "SELECT id, run_at FROM jobs WHERE id = ANY(?)";
    private static final String PRIORITY = "SELECT job_id, priority FROM job_executions WHERE job_id = ANY(?)";
    private static final String INSERT_IDLE = "INSERT INTO job_executions (job_id, job_type, instruction, job_status,"
            + " max_retries, next_run_at, created_at, updated_at)"
            + " SELECT gen_random_uuid(), ?, '{}'::jsonb, 'PENDING', 0, now() + make_interval(secs => ?),"
            + " now(), now() FROM generate_series(1, ?)";
    private static final String DELETE_IDLE = "DELETE FROM job_executions WHERE job_type = ?";

    private static final String CANCELLED = "SELECT id FROM jobs WHERE id = ANY(?) AND status = 'CANCELLED'";
    private static final String RUNNING = "SELECT DISTINCT job_id FROM execution_attempts WHERE job_id = ANY(?)"
            + " AND outcome = 'RUNNING'";
    private static final String SCHEDULER_CANCELLED = "SELECT job_id, finished_at FROM job_executions"
            + " WHERE job_id = ANY(?) AND job_status = 'CANCELLED'";
    private static final String LAST_ATTEMPT = "SELECT DISTINCT ON (job_id) job_id, outcome, finished_at,"
            + " error_message FROM execution_attempts WHERE job_id = ANY(?) ORDER BY job_id, attempt DESC";

    private static final String TENANT_LIMIT = "SELECT max_running FROM tenant_limits WHERE tenant = ?";

    private static final String TICK_JOBS = "SELECT schedule_id, scheduled_for, created_at FROM jobs"
            + " WHERE schedule_id = ANY(?)";

    private final Connection api;
    private final Connection worker;
    private final Connection scheduler;
    private volatile String workerProblem;
    private volatile String schedulerProblem;
    private volatile String controlProblem;
    private volatile String cancelProblem;

    /** Connects to the three databases on {@code 127.0.0.1:port} as the local stack's tools role. */
    public PlatformDb(int port) {
        this.api = open(port, "jobweaver_api");
        this.worker = open(port, "jobweaver_worker");
        this.scheduler = open(port, "jobweaver_scheduler");
    }

    /**
     * A connection to {@code database} on {@code 127.0.0.1:port} as {@link Postgres#TOOLS_USER}: the bench's reads and
     * seeds run under a user id of their own, so that the statement statistics ({@link StatementStats}) hold the
     * platform's statements only.
     */
    static Connection connect(int port, String database) throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/" + database,
                Postgres.TOOLS_USER, Postgres.PASSWORD);
    }

    /** {@link #connect}, a failure told as the platform's PostgreSQL that cannot be read. */
    private static Connection open(int port, String database) {
        try {
            return connect(port, database);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the platform's PostgreSQL on 127.0.0.1:" + port + ": "
                    + e.getMessage(), e);
        }
    }

    /** The ids among {@code ids} whose job has reached a terminal status. */
    public synchronized Set<UUID> terminal(Collection<UUID> ids) {
        return idsOf(api, TERMINAL, ids);
    }

    /**
     * The raw record of every accepted job: the API's row joined with the worker's attempts. When the worker's
     * database cannot be read, start times are null and executions -1 (see {@link #workerProblem}).
     */
    public synchronized List<JobRecord> records(List<Accepted> accepted) {
        workerProblem = null;
        schedulerProblem = null;
        List<UUID> ids = accepted.stream().map(Accepted::jobId).toList();
        Map<UUID, Object[]> jobs = new HashMap<>();
        forChunks(api, JOBS, ids, rs -> jobs.put(rs.getObject("id", UUID.class), new Object[] {
                rs.getString("status"), rs.getInt("attempts"), instant(rs, "created_at"),
                instant(rs, "finished_at"), instant(rs, "updated_at")}));
        Map<UUID, Object[]> runs = new HashMap<>();
        // e.g. the worker's migrations have not run: report what the API database knows
        workerProblem = unreadable(() -> forChunks(worker, EXECUTIONS, ids, rs -> runs.put(
                rs.getObject("job_id", UUID.class), new Object[] {rs.getInt("runs"), instant(rs, "first_start")})));
        boolean workerRead = workerProblem == null;
        Map<UUID, Instant[]> scheduled = new HashMap<>();
        // only the stage breakdown needs these
        schedulerProblem = unreadable(() -> forChunks(scheduler, SCHEDULED, ids, rs -> scheduled.put(
                rs.getObject("job_id", UUID.class),
                new Instant[] {instant(rs, "ingested_at"), instant(rs, "dispatched_at")})));
        List<JobRecord> records = new ArrayList<>(accepted.size());
        for (Accepted a : accepted) {
            Object[] job = jobs.get(a.jobId());
            Object[] run = runs.get(a.jobId());
            Instant[] sched = scheduled.getOrDefault(a.jobId(), new Instant[2]);
            records.add(new JobRecord(a.jobId(), a.kind(), a.submittedAt(), a.acceptMs(),
                    job == null ? null : (Instant) job[2], sched[0], sched[1],
                    run == null ? null : (Instant) run[1],
                    job == null ? null : (Instant) job[3],
                    job == null ? null : (Instant) job[4],
                    null,
                    job == null ? null : (String) job[0],
                    job == null ? 0 : (Integer) job[1],
                    !workerRead ? -1 : run == null ? 0 : (Integer) run[0],
                    a.control(), null, null));
        }
        return records;
    }

    /**
     * {@code records} with the job control the platform recorded for each: the start the API resolved
     * ({@code jobweaver_api.jobs.run_at}) and the priority the scheduler dispatches by
     * ({@code jobweaver_scheduler.job_executions.priority}). Read apart from {@link #records}, so that a platform
     * without these columns still gives every other figure; why one could not be read is in {@link #controlProblem}.
     */
    public synchronized List<JobRecord> withRecordedControl(List<JobRecord> records) {
        controlProblem = null;
        List<UUID> ids = records.stream().map(JobRecord::jobId).toList();
        Map<UUID, Instant> runAt = new HashMap<>();
        Map<UUID, Priority> priority = new HashMap<>();
        List<String> problems = new ArrayList<>();
        readOrNote(problems, "jobweaver_api.jobs.run_at", () -> forChunks(api, RUN_AT, ids,
                rs -> runAt.put(rs.getObject("id", UUID.class), instant(rs, "run_at"))));
        readOrNote(problems, "jobweaver_scheduler.job_executions.priority", () -> forChunks(scheduler, PRIORITY, ids,
                rs -> priority.put(rs.getObject("job_id", UUID.class), priority(rs.getString("priority")))));
        controlProblem = problems.isEmpty() ? null : String.join("; ", problems);
        return records.stream().map(r -> r.withControl(r.control(), runAt.get(r.jobId()), priority.get(r.jobId())))
                .toList();
    }

    /** Why the last {@link #withRecordedControl} could not read a column, or null when it could. */
    public String controlProblem() {
        return controlProblem;
    }

    private static Priority priority(String name) {
        try {
            return name == null ? null : Priority.valueOf(name);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The ids among {@code ids} whose job the API shows CANCELLED. */
    public synchronized Set<UUID> cancelled(Collection<UUID> ids) {
        return idsOf(api, CANCELLED, ids);
    }

    /** The ids among {@code ids} with an attempt the worker is running ({@code execution_attempts.outcome}). */
    public synchronized Set<UUID> running(Collection<UUID> ids) {
        return idsOf(worker, RUNNING, ids);
    }

    /**
     * What the scheduler and the worker recorded of a cancel.
     *
     * @param cancelledAt {@code jobweaver_scheduler.job_executions.finished_at} of a job it holds CANCELLED; null when
     *                    it does not
     * @param outcome the {@code outcome} of the job's latest {@code jobweaver_worker.execution_attempts} row; null
     *                without one
     * @param attemptFinishedAt that row's {@code finished_at}: for an interrupted run, the interrupt
     * @param attemptError that row's {@code error_message}
     */
    public record CancelTrace(Instant cancelledAt, String outcome, Instant attemptFinishedAt, String attemptError) {

        /** Nothing recorded. */
        public static final CancelTrace NONE = new CancelTrace(null, null, null, null);
    }

    /**
     * The {@link CancelTrace} of every job of {@code ids} that has one; a table that cannot be read is left out, and
     * why is in {@link #cancelProblem}.
     */
    public synchronized Map<UUID, CancelTrace> cancelTraces(Collection<UUID> ids) {
        List<String> problems = new ArrayList<>();
        Map<UUID, Instant> cancelled = new HashMap<>();
        readOrNote(problems, "jobweaver_scheduler.job_executions", () -> forChunks(scheduler, SCHEDULER_CANCELLED, ids,
                rs -> cancelled.put(rs.getObject("job_id", UUID.class), instant(rs, "finished_at"))));
        Map<UUID, CancelTrace> traces = new HashMap<>();
        readOrNote(problems, "jobweaver_worker.execution_attempts", () -> forChunks(worker, LAST_ATTEMPT, ids, rs -> {
            UUID id = rs.getObject("job_id", UUID.class);
            traces.put(id, new CancelTrace(cancelled.get(id), rs.getString("outcome"), instant(rs, "finished_at"),
                    rs.getString("error_message")));
        }));
        cancelled.forEach((id, at) -> traces.putIfAbsent(id, new CancelTrace(at, null, null, null)));
        cancelProblem = problems.isEmpty() ? null : String.join("; ", problems);
        return traces;
    }

    /** Why the last {@link #cancelTraces} could not read a table, or null when it could. */
    public String cancelProblem() {
        return cancelProblem;
    }

    /**
     * Every job the schedules {@code scheduleIds} made, as {@code jobweaver_api.jobs} has it: the tick it was for
     * ({@code scheduled_for}) and when the API stored it ({@code created_at}).
     */
    public synchronized List<ScheduleTicks.TickJob> tickJobs(Collection<UUID> scheduleIds) {
        List<ScheduleTicks.TickJob> jobs = new ArrayList<>();
        forChunks(api, TICK_JOBS, scheduleIds, rs -> jobs.add(new ScheduleTicks.TickJob(
                rs.getObject("schedule_id", UUID.class), instant(rs, "scheduled_for"), instant(rs, "created_at"))));
        return jobs;
    }

    /**
     * The {@code max_running} the scheduler holds for {@code tenant} ({@code jobweaver_scheduler.tenant_limits}, which
     * it fills from {@code tenant-limits}); null when it holds none. What the API stored reaches the scheduler a moment
     * later: this is when its claims apply it.
     */
    public synchronized Integer tenantLimit(String tenant) {
        try (PreparedStatement select = scheduler.prepareStatement(TENANT_LIMIT)) {
            select.setString(1, tenant);
            try (ResultSet rs = select.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                int value = rs.getInt(1);
                return rs.wasNull() ? null : value;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(explain(e), e);
        }
    }

    /**
     * Inserts {@code count} PENDING rows into {@code jobweaver_scheduler.job_executions}, due {@code ahead} from now,
     * with {@link #IDLE_MARKER} as their {@code job_type}, in transactions of {@value #IDLE_BATCH}; calls
     * {@code progress} with the rows inserted so far after each. Only the columns without a default are filled: the
     * rows are no job of the API and never meant to run ({@link #deleteIdleRows}).
     */
    public synchronized void insertIdleRows(int count, Duration ahead, IntConsumer progress) {
        try (PreparedStatement insert = scheduler.prepareStatement(INSERT_IDLE)) {
            for (int done = 0; done < count; ) {
                int batch = Math.min(IDLE_BATCH, count - done);
                insert.setString(1, IDLE_MARKER);
                insert.setDouble(2, ahead.toMillis() / 1000.0);
                insert.setInt(3, batch);
                insert.executeUpdate();
                done += batch;
                progress.accept(done);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("inserting the idle rows into jobweaver_scheduler.job_executions failed: "
                    + explain(e), e);
        }
    }

    /**
     * Vacuums and analyzes {@code job_executions}, so that autovacuum, which a million inserted rows would start, does
     * not run during a measurement; the statistics then describe the table as it is.
     */
    public synchronized void vacuumJobExecutions() {
        try (var statement = scheduler.createStatement()) {
            statement.execute("VACUUM (ANALYZE) job_executions");
        } catch (SQLException e) {
            throw new IllegalStateException("VACUUM of jobweaver_scheduler.job_executions failed: " + explain(e), e);
        }
    }

    /** Deletes every row {@link #insertIdleRows} made (by its marker); returns how many there were. */
    public synchronized int deleteIdleRows() {
        return deleteIdleRows(scheduler);
    }

    /**
     * Deletes the idle rows through a connection of its own to {@code 127.0.0.1:port}: for a bench stopped while they
     * are in the table (its shutdown hook), when the shared connection may be gone.
     */
    static int deleteIdleRows(int port) {
        try (Connection c = connect(port, "jobweaver_scheduler")) {
            return deleteIdleRows(c);
        } catch (SQLException e) {
            throw new IllegalStateException(explain(e), e);
        }
    }

    private static int deleteIdleRows(Connection connection) {
        try (PreparedStatement delete = connection.prepareStatement(DELETE_IDLE)) {
            delete.setString(1, IDLE_MARKER);
            return delete.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("deleting the idle rows (job_type " + IDLE_MARKER
                    + ") from jobweaver_scheduler.job_executions failed: " + explain(e), e);
        }
    }

    /**
     * How many {@code execution_attempts} rows of the jobs {@code ids} each worker wrote, by {@code worker_id} (the
     * instance's name; {@code -} for a row without one); null when the table cannot be read.
     */
    public synchronized Map<String, Long> executionsByWorker(Collection<UUID> ids) {
        Map<String, Long> byWorker = new java.util.TreeMap<>();
        String problem = unreadable(() -> forChunks(worker, BY_WORKER, ids, rs -> {
            String id = rs.getString("worker_id");
            byWorker.merge(id == null ? "-" : id, rs.getLong("runs"), Long::sum);
        }));
        return problem == null ? byWorker : null;
    }

    /** Why the last {@link #records} could not read {@code execution_attempts}, or null when it could. */
    public String workerProblem() {
        return workerProblem;
    }

    /** Why the last {@link #records} could not read {@code job_executions}, or null when it could. */
    public String schedulerProblem() {
        return schedulerProblem;
    }

    /** Runs {@code read}; when a table or column cannot be read, notes {@code what} and why in {@code problems}. */
    private static void readOrNote(List<String> problems, String what, Runnable read) {
        String problem = unreadable(read);
        if (problem != null) {
            problems.add(what + ": " + problem);
        }
    }

    /** Runs {@code read}; why a table or column could not be read, or null when it could. */
    private static String unreadable(Runnable read) {
        try {
            read.run();
            return null;
        } catch (IllegalStateException e) {
            return e.getMessage();
        }
    }

    /** The ids in the first column of {@code sql}'s rows, asked for {@code ids} chunk by chunk. */
    private static Set<UUID> idsOf(Connection connection, String sql, Collection<UUID> ids) {
        Set<UUID> found = new HashSet<>();
        forChunks(connection, sql, ids, rs -> found.add(rs.getObject(1, UUID.class)));
        return found;
    }

    private static void forChunks(Connection connection, String sql, Collection<UUID> ids,
                                  IdChunks.RowHandler handler) {
        try {
            IdChunks.query(connection, sql, ids, handler);
        } catch (SQLException e) {
            throw new IllegalStateException(explain(e), e);
        }
    }

    /** The database's error in one line, with a hint for the two errors a user can act on. */
    static String explain(SQLException e) {
        String message = e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst().orElse("");
        return switch (e.getSQLState() == null ? "" : e.getSQLState()) {
            case "42P01" -> message + " (has the service that owns this table started and run its Flyway migrations?)";
            case "42703" -> message + " (the bench's queries no longer match the services' Flyway migrations)";
            default -> "querying the platform's PostgreSQL failed: " + message;
        };
    }

    /**
     * A reader of {@code jobweaver_api.jobs} on a connection of its own, for the {@link FreshnessProbe}: the shared
     * connection is busy for tens of milliseconds while the watcher checks 20,000 open jobs.
     */
    public static TerminalReader terminalReader(int port) {
        return reader(port, TERMINAL);
    }

    /**
     * A reader of which jobs {@code jobweaver_api.jobs} shows CANCELLED, on a connection of its own: the cancel
     * workload's {@link FreshnessProbe}, whose "terminal" is CANCELLED.
     */
    public static TerminalReader cancelledReader(int port) {
        return reader(port, CANCELLED);
    }

    private static TerminalReader reader(int port, String sql) {
        return new TerminalReader(open(port, "jobweaver_api"), sql);
    }

    /** Which jobs are terminal (or, for the cancel workload, CANCELLED), on its own connection. */
    public static final class TerminalReader implements FreshnessProbe.TerminalCheck, AutoCloseable {

        private final Connection api;
        private final String sql;

        private TerminalReader(Connection api, String sql) {
            this.api = api;
            this.sql = sql;
        }

        @Override
        public synchronized Set<UUID> terminal(Collection<UUID> ids) {
            return idsOf(api, sql, ids);
        }

        @Override
        public synchronized void close() {
            try {
                api.close();
            } catch (SQLException e) {
                // closing anyway
            }
        }
    }

    /** Closes the connections. */
    @Override
    public synchronized void close() {
        for (Connection c : List.of(api, worker, scheduler)) {
            try {
                c.close();
            } catch (SQLException e) {
                // closing anyway
            }
        }
    }
}
