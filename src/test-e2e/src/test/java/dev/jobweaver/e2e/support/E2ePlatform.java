package dev.jobweaver.e2e.support;

import dev.jobweaver.local.LocalStack;
import dev.jobweaver.local.Platform;
import dev.jobweaver.local.Platform.Service;
import dev.jobweaver.local.Ports;
import dev.jobweaver.local.Postgres;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The platform under test: real Kafka, real PostgreSQL, a Zipkin viewer and the three packaged services, each its
 * own process, started once per e2e JVM on free ports and stopped when it exits. Its API runs secured, with the admin
 * key of its home ({@link #adminKey()}), which {@link #api()} sends.
 *
 * <p>Scenarios kill and restart services; the platform's supervisor restarts a killed service after
 * {@link #RESTART_DELAY}, as Kubernetes would. Every scenario starts with {@link #awaitHealthy()} so that one
 * scenario's fault never leaks into the next.
 *
 * <p>With the system property {@link #NATIVE} set to {@code true} (the module's {@code native} profile sets it) the
 * services run as their native executables, with the options {@code ./jobweaver up --native} gives them.
 */
public final class E2ePlatform {

    /** How long the supervisor waits before restarting a dead service. */
    public static final Duration RESTART_DELAY = Duration.ofSeconds(1);

    /**
     * Retry backoff base for the e2e platform: seconds, not the production 5 s, so the retry scenario is short; but
     * not shorter, so the growth from one delay to the next (2 s, then 4 s) stands out of the ~1 s it takes to
     * report a failure and dispatch the retry.
     */
    public static final Duration BACKOFF_BASE = Duration.ofSeconds(2);

    /** The system property that runs the services' native executables instead of their jars. */
    public static final String NATIVE = "jobweaver.e2e.native";

    /** The lock on this JVM's platform folder, held until it exits, so that no other e2e JVM takes the folder. */
    private static FileChannel homeLock;

    private static Platform platform;
    private static JobWeaverClient client;
    private static RuntimeException startFailure;

    private E2ePlatform() {
    }

    /** The running platform, started on first use. */
    public static synchronized Platform get() {
        if (startFailure != null) {
            throw new IllegalStateException("the e2e platform failed to start (see the first failure)", startFailure);
        }
        if (platform == null) {
            Path root = Path.of(System.getProperty("jobweaver.root", "../..")).toAbsolutePath().normalize();
            Map<Service, Integer> ports = new EnumMap<>(Service.class);
            for (Service service : Service.values()) {
                ports.put(service, freePortWithRoomForReplicas());
            }
            // JOBWEAVER_JAVA_OPTS as up and chaos take it, e.g. -XX:+HeapDumpOnOutOfMemoryError
            List<String> jvm = Platform.Options.jvmWith(System.getenv("JOBWEAVER_JAVA_OPTS"));
            Platform.Options options = new Platform.Options(root, stackSettings(), ports, Map.of(),
                    TestConfig.perService(), jvm, RESTART_DELAY, Duration.ofSeconds(180), Ports.free());
            if (Boolean.getBoolean(NATIVE)) {
                options = options.natively(Platform.Options.NATIVE);
            }
            Platform started = new Platform(options, line -> System.out.println("[platform] " + line));
            Runtime.getRuntime().addShutdownHook(new Thread(started::close, "e2e-platform-stop"));
            long t0 = System.nanoTime();
            try {
                started.start();
            } catch (RuntimeException e) {
                // Stop what did start, and fail every later scenario at once instead of starting another platform.
                started.close();
                startFailure = e;
                throw e;
            }
            System.out.printf("[platform] up in %.1f s%n", (System.nanoTime() - t0) / 1e9);
            platform = started;
            // the platform runs secured, as `up` does: every scenario's request carries the admin key
            client = new JobWeaverClient(started.instances(Service.API).getFirst().url(),
                    started.adminKey().orElseThrow());
        }
        return platform;
    }

    /**
     * Free ports and the test stacks' broker options (C1 only: the suite is CPU-bound), in
     * {@code target/e2e-platform-<n>} (emptied first, kept afterwards): when a scenario fails, the
     * services' logs are still there to read, and CI can keep them. {@link #ownHome()} gives each e2e JVM running at
     * once (two builds of the module, or failsafe forks) a folder of its own.
     */
    private static LocalStack.Settings stackSettings() {
        Path home = ownHome();
        LocalStack.Settings ephemeral = LocalStack.Settings.ephemeral();
        try (var old = java.nio.file.Files.walk(home)) {
            old.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (java.io.IOException e) {
            // nothing there yet
        }
        ephemeral.home().toFile().delete();
        return new LocalStack.Settings(home, ephemeral.kafkaPort(), ephemeral.kafkaControllerPort(),
                ephemeral.postgresPort(), ephemeral.kafkaHeap(), Map.of(), false, false, ephemeral.kafkaJvmOptions());
    }

    /**
     * The first of {@code target/e2e-platform-1}, {@code -2}, ... whose lock file no other JVM holds; the lock is
     * held until this JVM exits (the operating system releases it even after a kill).
     */
    private static Path ownHome() {
        Path target = Path.of("target").toAbsolutePath();
        for (int n = 1; ; n++) {
            Path lock = target.resolve("e2e-platform-" + n + ".lock");
            try {
                java.nio.file.Files.createDirectories(target);
                FileChannel channel = FileChannel.open(lock, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                if (channel.tryLock() != null) {
                    homeLock = channel;
                    return target.resolve("e2e-platform-" + n);
                }
                channel.close();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException("cannot lock " + lock, e);
            }
        }
    }

    /**
     * The admin key of the platform's API (tenant {@code default}), which {@code Platform} made in its home and handed
     * to the API, as {@code ./jobweaver up} does.
     */
    public static String adminKey() {
        return get().adminKey().orElseThrow();
    }

    /** A client of the platform's API, sending the admin key. */
    public static JobWeaverClient api() {
        get();
        return client;
    }

    /** Waits until every service instance is alive and ready (after a scenario killed or restarted one). */
    public static void awaitHealthy() {
        Platform p = get();
        for (Service service : Service.values()) {
            p.instances(service).forEach(instance -> {
                long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
                while (!instance.isAlive() && System.nanoTime() < deadline) {
                    sleep(200);
                }
                instance.awaitReady(Duration.ofSeconds(120));
            });
        }
        if (!p.stack().kafka().isRunning()) {
            p.stack().kafka().start();
        }
    }

    /** A JDBC connection to one service's database, for checks the REST API does not expose (executions per job). */
    public static Connection database(String name) throws SQLException {
        return DriverManager.getConnection(get().stack().postgres().jdbcUrl(name), Postgres.USER, Postgres.PASSWORD);
    }

    private static int freePortWithRoomForReplicas() {
        while (true) {
            int port = Ports.stable();
            if (port < 65_000 && !Ports.inUse(port + 100) && !Ports.inUse(port + 200)) {
                return port;
            }
        }
    }

    /** Sleeps, giving up quietly if interrupted (for client loops in scenarios). */
    public static void awaitQuietly(long millis) {
        sleep(millis);
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
