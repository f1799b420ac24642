package dev.jobweaver.local;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import org.jboss.logging.Logger;

/**
 * A real Apache Kafka broker in KRaft combined mode, run as its own JVM.
 *
 * <p>Why a separate JVM: Quarkus pins kafka-clients 4.1.1 while the broker is 4.3.1, and the two cannot share a
 * classpath. The broker's classpath is resolved by Maven in the {@code jobweaver-kafka-broker} module and read
 * here from the resource {@code jobweaver/kafka-broker.classpath}; none of those jars is loaded in this JVM.
 *
 * <p>Automatic topic creation is off: topics are created by {@link TopicProvisioner} with their partition
 * counts before any service subscribes. The data directory survives {@link #stop()}, so {@link #start()} after a
 * stop brings back the same topics, offsets and records on the same port, which is what the "Kafka down"
 * tests rely on.
 */
public final class KafkaBroker implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(KafkaBroker.class);
    private static final String CLASSPATH_RESOURCE = "jobweaver/kafka-broker.classpath";
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);
    /** Starts tried while a port of the broker is still taken. */
    private static final int BIND_ATTEMPTS = 5;
    /** Extra JVM options for the broker, after its own ({@link #jvmOptions}). */
    public static final String JAVA_OPTS_ENV = "JOBWEAVER_KAFKA_JAVA_OPTS";

    private final Path home;
    private final int port;
    private final int controllerPort;
    private final String heap;
    /** Options after the broker's own and before {@link #JAVA_OPTS_ENV}'s. */
    private final List<String> options;
    private Process process;
    /** Stops the broker if the launcher dies without stopping it; null when nobody watches. */
    private Reaper reaper;

    /**
     * @param home folder for the broker's data, configuration and log; kept across restarts
     * @param port the PLAINTEXT listener clients use
     * @param controllerPort the KRaft controller listener
     * @param heap maximum heap, e.g. {@code 512m}
     * @param options JVM options after the broker's own ({@link #jvmOptions}), so they win; the environment's
     *                {@link #JAVA_OPTS_ENV} comes after them and wins over both
     */
    public KafkaBroker(Path home, int port, int controllerPort, String heap, List<String> options) {
        this.home = home;
        this.port = port;
        this.controllerPort = controllerPort;
        this.heap = heap;
        this.options = List.copyOf(options);
    }

    /** {@code 127.0.0.1:port}. */
    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    /** The broker's console log, for diagnosing a failed start. */
    public Path logFile() {
        return home.resolve("broker.log");
    }

    /** The broker's process id, or -1 when it is not running. */
    public synchronized long pid() {
        return isRunning() ? process.pid() : -1;
    }

    /** Whether the broker process is alive. */
    public synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    /** Formats the storage on first use, starts the broker and waits until it answers an admin request. */
    public synchronized void start() {
        if (isRunning()) {
            return;
        }
        try {
            Files.createDirectories(home);
            Path config = writeConfig();
            Path data = home.resolve("data");
            if (!Files.exists(data.resolve("meta.properties"))) {
                format(config);
            }
            List<String> command = new ArrayList<>();
            command.add(javaExecutable());
            command.addAll(jvmOptions(heap, options, System.getenv(JAVA_OPTS_ENV)));
            command.add("-Dlog4j2.configurationFile=" + home.resolve("log4j2.properties"));
            command.addAll(List.of("-cp", brokerClasspath(), "kafka.Kafka", config.toString()));
            ProcessBuilder builder = new ProcessBuilder(Reaper.detached(command))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile().toFile()));
            LOG.debugf("starting Kafka: %s", command);
            for (int attempt = 1; ; attempt++) {
                long logStart = Files.exists(logFile()) ? Files.size(logFile()) : 0;
                process = builder.start();
                if (reaper != null) {
                    reaper.register(Reaper.BROKERS, "kafka", process.pid());
                }
                try {
                    awaitReady();
                    break;
                } catch (IllegalStateException e) {
                    // A broker started again on its ports can find one still taken for a moment (a test's restart, a
                    // socket of its previous run); it tries again rather than fail a platform over a moment.
                    if (process.isAlive() || attempt == BIND_ATTEMPTS || !portTaken(logStart)) {
                        throw e;
                    }
                    LOG.warnf("Kafka could not bind its ports (attempt %d of %d); starting it again in 2 s", attempt,
                            BIND_ATTEMPTS);
                    sleep(2000);
                }
            }
            LOG.infof("Kafka broker ready on %s (pid %d)", bootstrapServers(), process.pid());
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the Kafka broker in " + home, e);
        }
    }

    /**
     * The broker's JVM options: a fixed heap of {@code heap}, G1 with short pauses, the JIT's full tiers, then
     * {@code options}, then {@code extra} (split on white space; null or blank adds nothing), which comes last and so
     * wins, e.g. {@code -XX:TieredStopAtLevel=1}.
     *
     * <p>C2, unlike the services, because the broker carries every record of every job and has no memory target: on a
     * warm platform at a steady 100 jobs/s C2 code took the broker's CPU from 3.3-3.6 to 1.9-2.1 ms a job, and with it
     * the machine's busy cores from 87-94% to 76-77% and submit-to-start p99 from 69-109 to 32-49 ms (alternated on one
     * 2-core machine, 2026-12-03). What it costs: about 6 s more of compiling over the first 15,000-20,000 jobs, which
     * made a cold platform's first 500 jobs 6-34% slower, and 20-140 MB more RSS.
     */
    static List<String> jvmOptions(String heap, List<String> options, String extra) {
        List<String> own = new ArrayList<>(List.of("-Xms" + heap, "-Xmx" + heap, "-XX:+UseG1GC",
                "-XX:MaxGCPauseMillis=20", "-Djava.awt.headless=true",
                // The broker unmaps its index files through sun.misc.Unsafe::invokeCleaner; JDK 25 allows it with a
                // four-line WARNING in the broker's log unless told so.
                "--sun-misc-unsafe-memory-access=allow"));
        own.addAll(options);
        return Processes.withExtraOptions(own, extra);
    }

    /** Registers the broker with {@code reaper} from its next start on. */
    void reapedBy(Reaper reaper) {
        this.reaper = reaper;
    }

    /** Stops the broker (SIGTERM, so it shuts down cleanly), waiting up to 30 s before killing it. */
    public synchronized void stop() {
        if (process == null) {
            return;
        }
        if (reaper != null) {
            reaper.unregister(Reaper.BROKERS, "kafka");
        }
        if (Processes.stop(process, Duration.ofSeconds(30))) {
            LOG.warn("Kafka did not stop within 30 s; it was killed");
        }
        process = null;
    }

    /** SIGKILL, as when the broker's machine dies: no clean shutdown, the log is recovered at the next start. */
    public synchronized void kill() {
        if (process == null) {
            return;
        }
        if (reaper != null) {
            reaper.unregister(Reaper.BROKERS, "kafka");
        }
        process.destroyForcibly();
        try {
            process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process = null;
    }

    @Override
    public void close() {
        stop();
    }

    /**
     * The broker's request threads for a machine of {@code cores}: one request handler per core (Kafka's default of 8
     * at most) and one network thread per four cores. Kafka's defaults (8 handlers, 3 network threads) are sized for
     * a server of its own; here the broker shares the cores with everything else, and on the 2-core machine 2 handlers
     * and 1 network thread took 4-34% less broker CPU per job in five alternated bursts and made the bursts 0-35%
     * faster (median 5%; measured 2026-11).
     */
    static Map<String, String> threads(int cores) {
        return Map.of(
                "num.io.threads", Integer.toString(Math.clamp(cores, 2, 8)),
                "num.network.threads", Integer.toString(Math.clamp(cores / 4, 1, 3)));
    }

    private Path writeConfig() throws IOException {
        Properties p = new Properties();
        p.setProperty("process.roles", "broker,controller");
        p.setProperty("node.id", "1");
        p.setProperty("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
        p.setProperty("listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.setProperty("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
        p.setProperty("controller.listener.names", "CONTROLLER");
        p.setProperty("inter.broker.listener.name", "PLAINTEXT");
        p.setProperty("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.setProperty("log.dirs", home.resolve("data").toString());
        // A consumer that starts before the topics exist must never create a one-partition topic.
        p.setProperty("auto.create.topics.enable", "false");
        p.setProperty("num.partitions", "1");
        // One broker: every internal topic has one replica, and a small offsets topic starts faster.
        p.setProperty("offsets.topic.replication.factor", "1");
        p.setProperty("offsets.topic.num.partitions", "10");
        p.setProperty("transaction.state.log.replication.factor", "1");
        p.setProperty("transaction.state.log.min.isr", "1");
        p.setProperty("share.coordinator.state.topic.replication.factor", "1");
        p.setProperty("share.coordinator.state.topic.min.isr", "1");
        p.setProperty("min.insync.replicas", "1");
        p.setProperty("group.initial.rebalance.delay.ms", "0");
        // Tests restart the broker; a short session lets a killed consumer's partitions move on sooner.
        p.setProperty("group.consumer.session.timeout.ms", "10000");
        p.setProperty("group.consumer.min.session.timeout.ms", "5000");
        p.setProperty("log.cleaner.backoff.ms", "5000");
        threads(Runtime.getRuntime().availableProcessors()).forEach(p::setProperty);
        Path config = home.resolve("server.properties");
        try (var out = Files.newBufferedWriter(config, StandardCharsets.UTF_8)) {
            p.store(out, "written by the JobWeaver launcher; regenerated at every start");
        }
        Files.writeString(home.resolve("log4j2.properties"), """
                status = warn
                # The JVM's own shutdown hooks stop the broker; log4j's would be refused at that point with a WARN.
                shutdownHook = disable
                appender.console.type = Console
                appender.console.name = STDOUT
                appender.console.layout.type = PatternLayout
                appender.console.layout.pattern = [%d] %p %m (%c)%n
                rootLogger.level = WARN
                rootLogger.appenderRef.stdout.ref = STDOUT
                logger.server.name = kafka.server.KafkaRaftServer
                logger.server.level = INFO
                logger.broker.name = kafka.server.BrokerServer
                logger.broker.level = INFO
                # A new cluster's first start says at WARN that its metadata log is empty: expected, not a problem.
                logger.controller.name = org.apache.kafka.controller.QuorumController
                logger.controller.level = WARN
                logger.controller.filter.activation.type = RegexFilter
                logger.controller.filter.activation.regex = .*Performing controller activation. The metadata log appears to be empty.*
                logger.controller.filter.activation.onMatch = DENY
                logger.controller.filter.activation.onMismatch = NEUTRAL
                """);
        return config;
    }

    private void format(Path config) throws IOException {
        String clusterId = Uuid.randomUuid().toString();
        Process formatter = new ProcessBuilder(javaExecutable(), "-Xmx256m", "-cp", brokerClasspath(),
                "-Dlog4j2.configurationFile=" + home.resolve("log4j2.properties"),
                "kafka.tools.StorageTool", "format", "-t", clusterId, "-c", config.toString())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile().toFile()))
                .start();
        try {
            boolean exited = formatter.waitFor(60, TimeUnit.SECONDS);
            if (!exited || formatter.exitValue() != 0) {
                String how = exited ? "exit " + formatter.exitValue() : "timed out after 60 s";
                formatter.destroyForcibly();
                // the folder is temporary in tests and gone after the run: the cause goes into the message
                throw new IllegalStateException("formatting Kafka storage failed (" + how + "); the end of "
                        + logFile() + ":\n" + Platform.tail(logFile(), 15));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while formatting Kafka storage", e);
        }
    }

    /** Whether the broker's log, from byte {@code from} on, says a port of its was taken. */
    private boolean portTaken(long from) {
        try (var channel = Files.newByteChannel(logFile())) {
            channel.position(from);
            String written = new String(java.nio.channels.Channels.newInputStream(channel).readAllBytes(),
                    StandardCharsets.UTF_8);
            return written.contains("Address already in use");
        } catch (IOException e) {
            return false;
        }
    }

    private void awaitReady() {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        Map<String, Object> config = Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 3000);
        try (Admin admin = KafkaClients.create(() -> Admin.create(config))) {
            while (System.nanoTime() < deadline) {
                if (!process.isAlive()) {
                    throw new IllegalStateException("the Kafka broker exited with code " + process.exitValue()
                            + " during start-up; see " + logFile());
                }
                try {
                    admin.describeCluster().nodes().get(3, TimeUnit.SECONDS);
                    return;
                } catch (ExecutionException | TimeoutException e) {
                    sleep(200);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for Kafka", e);
                }
            }
        }
        throw new IllegalStateException("Kafka did not become ready within " + READY_TIMEOUT + "; see " + logFile());
    }

    /** The broker's classpath, as resolved by Maven for the jobweaver-kafka-broker module. */
    static String brokerClasspath() {
        try (InputStream in = KafkaBroker.class.getClassLoader().getResourceAsStream(CLASSPATH_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(CLASSPATH_RESOURCE + " is not on the classpath: build"
                        + " tools/kafka-broker first (./mvnw package -pl tools/launcher -am)");
            }
            String classpath = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
            String first = classpath.split(java.io.File.pathSeparator)[0];
            if (!Files.exists(Path.of(first))) {
                throw new IllegalStateException("the Kafka broker's jars are missing from the local Maven repository ("
                        + first + "): rebuild tools/kafka-broker");
            }
            return classpath;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The java of this JVM: the broker runs on the same JDK as whatever starts it. */
    static String javaExecutable() {
        return ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
