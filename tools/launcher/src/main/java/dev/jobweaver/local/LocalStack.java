package dev.jobweaver.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jboss.logging.Logger;

/**
 * The platform's infrastructure on one machine: a Kafka broker (its own JVM), a PostgreSQL server with the three
 * databases, and the topics with their partition counts.
 *
 * <p>One entry point, used three ways: `./jobweaver up` ({@link JobWeaverLocal}), the services' integration tests
 * ({@code @JobWeaverTest} of the testing module, through {@link #shared()}) and the end-to-end tests.
 */
public final class LocalStack implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(LocalStack.class);
    private static LocalStack shared;

    private final Settings settings;
    private final KafkaBroker kafka;
    private final Postgres postgres;
    private Reaper reaper;
    private volatile Map<String, Integer> partitions = Map.of();

    /**
     * Where and how the stack runs.
     *
     * @param home folder holding kafka/ and postgres/; kept across restarts unless {@code deleteOnClose}
     * @param kafkaPort the broker's client port
     * @param kafkaControllerPort the KRaft controller port
     * @param postgresPort PostgreSQL's port
     * @param kafkaHeap the broker's heap, e.g. {@code 512m}
     * @param partitionOverrides topic name to partition count, for topics that should differ from the defaults
     * @param deleteOnClose remove {@code home} when the stack closes (tests)
     * @param statementStats PostgreSQL keeps per-statement statistics ({@link Postgres#STATEMENT_STATS}) for the
     *                       bench's statements table; off by default, since it costs every statement a little
     * @param kafkaJvmOptions JVM options after the broker's own, e.g. {@code -XX:TieredStopAtLevel=1}
     */
    public record Settings(Path home, int kafkaPort, int kafkaControllerPort, int postgresPort, String kafkaHeap,
                           Map<String, Integer> partitionOverrides, boolean deleteOnClose, boolean statementStats,
                           List<String> kafkaJvmOptions) {

        /** Settings with the broker's own JVM options. */
        public Settings(Path home, int kafkaPort, int kafkaControllerPort, int postgresPort, String kafkaHeap,
                        Map<String, Integer> partitionOverrides, boolean deleteOnClose, boolean statementStats) {
            this(home, kafkaPort, kafkaControllerPort, postgresPort, kafkaHeap, partitionOverrides, deleteOnClose,
                    statementStats, List.of());
        }

        /** Settings without statement statistics. */
        public Settings(Path home, int kafkaPort, int kafkaControllerPort, int postgresPort, String kafkaHeap,
                        Map<String, Integer> partitionOverrides, boolean deleteOnClose) {
            this(home, kafkaPort, kafkaControllerPort, postgresPort, kafkaHeap, partitionOverrides, deleteOnClose,
                    false);
        }

        /**
         * Free ports in a fresh temporary folder, removed on close: what tests use. Below the ephemeral range
         * ({@link Ports#stable()}), since tests stop and start the broker and the database on their ports.
         *
         * <p>The broker stops at C1, as the test JVMs do: a test run is CPU-bound on two cores and carries too few
         * records for C2's compilations to pay back.
         */
        public static Settings ephemeral() {
            try {
                return new Settings(Files.createTempDirectory("jobweaver-stack-"), Ports.stable(), Ports.stable(),
                        Ports.stable(), "512m", Map.of(), true, false, List.of("-XX:TieredStopAtLevel=1"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    public LocalStack(Settings settings) {
        this.settings = settings;
        this.kafka = new KafkaBroker(settings.home().resolve("kafka"), settings.kafkaPort(),
                settings.kafkaControllerPort(), settings.kafkaHeap(), settings.kafkaJvmOptions());
        this.postgres = new Postgres(settings.home().resolve("postgres").resolve("data"), settings.postgresPort(),
                settings.statementStats());
    }

    /**
     * The stack of this JVM, started on first use and stopped when the JVM exits: every test class of a test run
     * shares it, so the infrastructure starts once per run, not once per class.
     */
    public static synchronized LocalStack shared() {
        if (shared == null) {
            LocalStack stack = new LocalStack(Settings.ephemeral());
            try {
                stack.start();
            } catch (RuntimeException e) {
                stack.close(); // never leave a half-started broker or server behind a failed start
                throw e;
            }
            Runtime.getRuntime().addShutdownHook(new Thread(stack::close, "jobweaver-local-stack-stop"));
            shared = stack;
        }
        return shared;
    }

    /** Starts PostgreSQL and Kafka side by side, then creates the topics; fails if either fails. */
    public void start() {
        long started = System.nanoTime();
        kafka.reapedBy(reaper());
        postgres.reapedBy(reaper());
        var pg = Processes.inBackground("postgres-start", postgres::start);
        kafka.start();
        partitions = TopicProvisioner.ensureTopics(kafka.bootstrapServers(), settings.partitionOverrides());
        Processes.await(pg, "PostgreSQL");
        LOG.infof("local stack up in %d ms: Kafka %s, PostgreSQL 127.0.0.1:%d",
                (System.nanoTime() - started) / 1_000_000, kafka.bootstrapServers(), postgres.port());
    }

    /** Stops this stack's processes, and those registered with it, if this JVM dies without stopping them. */
    public synchronized Reaper reaper() {
        if (reaper == null) {
            reaper = Reaper.start(settings.home().resolve("run"));
        }
        return reaper;
    }

    /** Each topic's partition count as the broker had it once the stack started; empty before. */
    public Map<String, Integer> partitions() {
        return partitions;
    }

    /** The broker, to stop and restart it in tests of Kafka outages. */
    public KafkaBroker kafka() {
        return kafka;
    }

    /** The database server. */
    public Postgres postgres() {
        return postgres;
    }

    /** {@code 127.0.0.1:port} of the broker. */
    public String kafkaBootstrapServers() {
        return kafka.bootstrapServers();
    }

    /** The settings this stack was started with. */
    public Settings settings() {
        return settings;
    }

    /**
     * The configuration a running Quarkus service needs to use this stack with database {@code database}: the same
     * keys whether it is passed to a test (test resource) or to a packaged service (system properties). No JDBC URL:
     * without one Quarkus leaves the JDBC datasource, and Flyway with it, inactive (see {@link #migrationConfig}).
     */
    public Map<String, String> serviceConfig(String database) {
        return Map.of(
                "kafka.bootstrap.servers", kafka.bootstrapServers(),
                "quarkus.datasource.reactive.url", postgres.reactiveUrl(database),
                "quarkus.datasource.username", Postgres.USER,
                "quarkus.datasource.password", Postgres.PASSWORD);
    }

    /**
     * What a service needs on top of {@link #serviceConfig} to migrate database {@code database} with Flyway as it
     * starts: the JDBC URL (Flyway speaks JDBC only). Tests start their service this way; the packaged platform
     * migrates in a separate short start instead ({@link SchemaMigration}), so that its long-running services never
     * load JDBC, Agroal and Flyway.
     */
    public Map<String, String> migrationConfig(String database) {
        return Map.of("quarkus.datasource.jdbc.url", postgres.jdbcUrl(database));
    }

    /** Stops Kafka, then PostgreSQL; removes the folder if the settings say so. */
    @Override
    public void close() {
        try {
            kafka.stop();
        } finally {
            postgres.close();
            synchronized (this) {
                if (reaper != null) {
                    reaper.close();
                    reaper = null;
                }
            }
        }
        if (settings.deleteOnClose()) {
            deleteRecursively(settings.home());
        }
    }

    private static void deleteRecursively(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            LOG.debugf("could not remove %s: %s", root, e.getMessage());
        }
    }
}
