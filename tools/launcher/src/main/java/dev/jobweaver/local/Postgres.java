package dev.jobweaver.local;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * A real PostgreSQL server from the zonky embedded binaries, holding one database per service.
 *
 * <p>The zonky binaries run as root (they wrap initdb and postgres in an unprivileged user namespace) and as a
 * normal user alike; Debian's own PostgreSQL refuses to run as root. The data folder is kept across restarts when
 * it is given, so `./jobweaver up` finds its jobs again. Authentication is {@code trust} on loopback: user
 * {@value #USER}, any password.
 */
public final class Postgres implements AutoCloseable {

    /** The superuser every service connects as on the local stack. */
    public static final String USER = "postgres";
    /** Accepted and ignored by trust authentication; set so that drivers that insist on one have one. */
    public static final String PASSWORD = "postgres";
    /** The databases of the three services. */
    public static final List<String> DATABASES = List.of("jobweaver_api", "jobweaver_scheduler", "jobweaver_worker");
    /**
     * The role tools connect as to read the platform's tables (`./jobweaver bench`): a superuser like {@link #USER},
     * but another user id, so that the statement statistics tell the platform's statements from the tools' reads.
     */
    public static final String TOOLS_USER = "jobweaver_tools";
    /**
     * What {@code up --sql-stats} loads: {@code pg_stat_statements}, whose view (in the {@code postgres} database)
     * sums each statement's calls, rows and time, and {@code auto_explain}, which logs the plan of one statement in
     * {@value #EXPLAIN_SAMPLE_RATE} to {@code postgres.log}, so the hot statements' plans show in proportion to how
     * often they run.
     */
    public static final String STATEMENT_STATS = "pg_stat_statements,auto_explain";
    static final String EXPLAIN_SAMPLE_RATE = "0.001";

    private static final Logger LOG = Logger.getLogger(Postgres.class);

    private final Path dataDirectory;
    private final int port;
    private final boolean statementStats;
    private EmbeddedPostgres server;
    /** Stops the server if the launcher dies without stopping it; null when nobody watches. */
    private Reaper reaper;

    /**
     * @param dataDirectory where the cluster lives; reused when it already holds one
     * @param port the port to listen on
     */
    public Postgres(Path dataDirectory, int port) {
        this(dataDirectory, port, false);
    }

    /**
     * @param dataDirectory where the cluster lives; reused when it already holds one
     * @param port the port to listen on
     * @param statementStats load {@link #STATEMENT_STATS}
     */
    public Postgres(Path dataDirectory, int port, boolean statementStats) {
        this.dataDirectory = dataDirectory;
        this.port = port;
        this.statementStats = statementStats;
    }

    /** Starts the server (initialising the cluster on first use) and creates the missing databases. */
    public synchronized void start() {
        if (server != null) {
            return;
        }
        try {
            Files.createDirectories(dataDirectory.getParent());
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                    .setDataDirectory(dataDirectory)
                    .setCleanDataDirectory(false)
                    .setPort(port)
                    .setPGStartupWait(Duration.ofSeconds(60))
                    .setRegisterShutdownHook(false) // our owner stops it, after the services
                    // Three services with their pools, plus Flyway and tests: the default 100 is tight.
                    .setServerConfig("max_connections", "300")
                    .setServerConfig("shared_buffers", "256MB")
                    // The embedded server turns both off by default, for throwaway test databases. Here a job
                    // the API accepted must survive a crash of the machine; on this disk a flush takes 0.1 ms.
                    .setServerConfig("fsync", "on")
                    .setServerConfig("synchronous_commit", "on")
                    .setOutputRedirector(ProcessBuilder.Redirect.appendTo(dataDirectory.resolveSibling("postgres.log").toFile()))
                    .setErrorRedirector(ProcessBuilder.Redirect.appendTo(dataDirectory.resolveSibling("postgres.log").toFile()));
            if (statementStats) {
                builder.setServerConfig("shared_preload_libraries", STATEMENT_STATS)
                        // statements as the services send them, not those run inside functions
                        .setServerConfig("pg_stat_statements.track", "top")
                        .setServerConfig("auto_explain.log_min_duration", "0")
                        .setServerConfig("auto_explain.sample_rate", EXPLAIN_SAMPLE_RATE);
            }
            server = builder.start();
            createDatabasesAndRoles();
            registerPostmaster();
            LOG.infof("PostgreSQL ready on 127.0.0.1:%d (%s)", port, dataDirectory);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start PostgreSQL in " + dataDirectory + " on port " + port, e);
        }
    }

    /** Registers the server with {@code reaper} from its next start on. */
    void reapedBy(Reaper reaper) {
        this.reaper = reaper;
    }

    /** The postmaster's pid, the first line of {@code postmaster.pid}, goes to the reaper. */
    private void registerPostmaster() {
        if (reaper == null) {
            return;
        }
        try {
            reaper.register(Reaper.DATABASE, "postgres", postmasterPid());
        } catch (IOException | RuntimeException e) {
            LOG.warnf("PostgreSQL runs, but its pid could not be read for the reaper: %s", e.toString());
        }
    }

    /** The port the server listens on. */
    public int port() {
        return port;
    }

    /** {@code jdbc:postgresql://127.0.0.1:port/database}. */
    public String jdbcUrl(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    /** {@code postgresql://127.0.0.1:port/database}, for the Vert.x reactive client. */
    public String reactiveUrl(String database) {
        return "postgresql://127.0.0.1:" + port + "/" + database;
    }

    /** Stops the server; the data folder stays. */
    @Override
    public synchronized void close() {
        if (server == null) {
            return;
        }
        if (reaper != null) {
            reaper.unregister(Reaper.DATABASE, "postgres");
        }
        try {
            server.close();
        } catch (IOException e) {
            LOG.warn("stopping PostgreSQL failed", e);
        }
        server = null;
    }

    /** Whether this object started the server and has not stopped (or killed) it since. */
    public synchronized boolean isRunning() {
        return server != null;
    }

    /** The postmaster's process id, or -1 when the server is not running. */
    public synchronized long pid() {
        if (server == null) {
            return -1;
        }
        try {
            return postmasterPid();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * SIGKILL to the postmaster, as when its machine dies: no checkpoint, no clean shutdown, and {@link #start()} on
     * the same data folder then recovers from the WAL (every commit the services were answered had been flushed:
     * fsync and synchronous_commit are on).
     *
     * <p>The postmaster's children (backends, checkpointer, WAL writer) notice that their parent died and exit by
     * themselves; any still there after {@link #CHILDREN_GRACE} is killed too, since a new postmaster refuses to start
     * while an old process still holds the previous server's shared memory.
     *
     * <p>zonky's EmbeddedPostgres holds a lock on the data folder until it is closed, and its close runs
     * {@code pg_ctl stop}, which would signal the pid written in {@code postmaster.pid}: a number the system may
     * already have given to another process. So the file is moved aside while the dead server's object is closed
     * (pg_ctl then finds no server and stops nothing), and put back for the next start, which sees the stale file
     * as a crashed server's.
     */
    public synchronized void kill() {
        if (server == null) {
            return;
        }
        if (reaper != null) {
            reaper.unregister(Reaper.DATABASE, "postgres");
        }
        long pid;
        try {
            pid = postmasterPid();
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("cannot read the postmaster's pid in " + dataDirectory, e);
        }
        ProcessHandle postmaster = ProcessHandle.of(pid).orElse(null);
        if (postmaster != null) {
            // Listed before the kill: once the postmaster is gone its children belong to init, not to it.
            List<ProcessHandle> children = postmaster.descendants().toList();
            postmaster.destroyForcibly();
            awaitGone(List.of(postmaster), Duration.ofSeconds(10));
            if (!awaitGone(children, CHILDREN_GRACE)) {
                children.forEach(ProcessHandle::destroyForcibly);
                awaitGone(children, Duration.ofSeconds(10));
            }
        }
        closeDeadServer();
        server = null;
        LOG.infof("PostgreSQL killed (postmaster pid %d)", pid);
    }

    /** How long the children of a killed postmaster get to exit by themselves. */
    static final Duration CHILDREN_GRACE = Duration.ofSeconds(5);

    /** Releases zonky's lock on the data folder without letting {@code pg_ctl stop} signal a recycled pid. */
    private void closeDeadServer() {
        Path pidFile = dataDirectory.resolve("postmaster.pid");
        Path aside = dataDirectory.resolve("postmaster.pid.killed");
        java.util.logging.Logger zonky = java.util.logging.Logger.getLogger(EmbeddedPostgres.class.getName());
        java.util.logging.Level level = zonky.getLevel();
        try {
            boolean moved = Files.exists(pidFile);
            if (moved) {
                Files.move(pidFile, aside, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
            // zonky logs the failed pg_ctl stop (there is no server to stop) as an error: expected here.
            zonky.setLevel(java.util.logging.Level.OFF);
            try {
                server.close();
            } finally {
                zonky.setLevel(level);
                if (moved) {
                    Files.move(aside, pidFile, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } catch (IOException e) {
            LOG.warnf("after killing PostgreSQL: %s", e.toString());
        }
    }

    private long postmasterPid() throws IOException {
        return Long.parseLong(Files.readAllLines(dataDirectory.resolve("postmaster.pid")).getFirst().trim());
    }

    /** Waits until every process of {@code processes} has exited; false if one is still alive after {@code timeout}. */
    private static boolean awaitGone(List<ProcessHandle> processes, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (processes.stream().anyMatch(ProcessHandle::isAlive)) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    /**
     * On one connection to the {@code postgres} database: the services' databases and {@link #TOOLS_USER} where
     * missing, and with statement statistics their view, where the bench reads it.
     */
    private void createDatabasesAndRoles() {
        try (Connection connection = server.getPostgresDatabase().getConnection();
             Statement statement = connection.createStatement();
             PreparedStatement exists = connection.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?");
             PreparedStatement role = connection.prepareStatement("SELECT 1 FROM pg_roles WHERE rolname = ?")) {
            for (String database : DATABASES) {
                exists.setString(1, database);
                try (ResultSet rs = exists.executeQuery()) {
                    if (!rs.next()) {
                        statement.execute("CREATE DATABASE " + database);
                    }
                }
            }
            role.setString(1, TOOLS_USER);
            try (ResultSet rs = role.executeQuery()) {
                if (!rs.next()) {
                    statement.execute("CREATE ROLE " + TOOLS_USER + " LOGIN SUPERUSER");
                }
            }
            if (statementStats) {
                statement.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not create the JobWeaver databases and roles", e);
        }
    }
}
