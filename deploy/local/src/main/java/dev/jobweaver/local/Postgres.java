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

    private static final Logger LOG = Logger.getLogger(Postgres.class);

    private final Path dataDirectory;
    private final int port;
    private EmbeddedPostgres server;
    /** Stops the server if the launcher dies without stopping it; null when nobody watches. */
    private Reaper reaper;

    /**
     * @param dataDirectory where the cluster lives; reused when it already holds one
     * @param port the port to listen on
     */
    public Postgres(Path dataDirectory, int port) {
        this.dataDirectory = dataDirectory;
        this.port = port;
    }

    /** Starts the server (initialising the cluster on first use) and creates the missing databases. */
    public synchronized void start() {
        if (server != null) {
            return;
        }
        try {
            Files.createDirectories(dataDirectory.getParent());
            server = EmbeddedPostgres.builder()
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
                    .setErrorRedirector(ProcessBuilder.Redirect.appendTo(dataDirectory.resolveSibling("postgres.log").toFile()))
                    .start();
            createDatabases();
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
            String pid = Files.readAllLines(dataDirectory.resolve("postmaster.pid")).getFirst().trim();
            reaper.register(Reaper.DATABASE, "postgres", Long.parseLong(pid));
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

    private void createDatabases() {
        try (Connection connection = server.getPostgresDatabase().getConnection();
             Statement statement = connection.createStatement();
             PreparedStatement exists = connection.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
            for (String database : DATABASES) {
                exists.setString(1, database);
                try (ResultSet rs = exists.executeQuery()) {
                    if (!rs.next()) {
                        statement.execute("CREATE DATABASE " + database);
                    }
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not create the JobWeaver databases", e);
        }
    }
}
