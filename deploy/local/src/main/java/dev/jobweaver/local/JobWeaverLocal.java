package dev.jobweaver.local;

import dev.jobweaver.local.Platform.Service;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * The command line behind `./jobweaver`: {@code up} runs the platform on this machine, {@code infra} only Kafka and
 * PostgreSQL (for running a service in Quarkus dev mode against them).
 *
 * <p>Data lives in {@code --home} (default {@code .jobweaver/} in the repository) and survives restarts. Ctrl-C or
 * SIGTERM stops the services gracefully, then Kafka and PostgreSQL.
 */
public final class JobWeaverLocal {

    private static final String USAGE = """
            usage: jobweaver up|infra [options]
              up       Kafka, PostgreSQL and every built service, each its own process
              infra    only Kafka and PostgreSQL
            options:
              --workers N          worker replicas (default 1); replica n listens on 8082 + 100(n-1)
              --schedulers N       scheduler replicas (default 1); replica n listens on 8081 + 100(n-1)
              --api-port P         API port (default 8080)
              --scheduler-port P   first scheduler port (default 8081)
              --worker-port P      first worker port (default 8082)
              --kafka-port P       Kafka client port (default 9092; the controller uses P+1)
              --postgres-port P    PostgreSQL port (default 5432)
              --traces             also start a Zipkin trace viewer (port 9411) and export every span to it
              --zipkin-port P      the viewer's port (default 9411)
              --no-aot-cache       start the services without JDK AOT caches (by default a service whose cache
                                   is missing or stale gets one training start first; caches live in DIR/aot)
              --start-together     start all services at once instead of one after another
              --home DIR           data, logs and configuration (default .jobweaver)
              --root DIR           the repository (default: the current directory)
            """;

    private JobWeaverLocal() {
    }

    public static void main(String[] args) {
        // The admin and embedded-server clients log every reconnect at INFO; the launcher's console is for people.
        for (String noisy : List.of("org.apache.kafka", "io.zonky")) {
            // NetworkClient warns on every refused connection while the broker starts: expected, not news.
            java.util.logging.Logger.getLogger(noisy).setLevel(java.util.logging.Level.WARNING);
        }
        java.util.logging.Logger.getLogger("org.apache.kafka.clients.NetworkClient").setLevel(java.util.logging.Level.SEVERE);
        try {
            run(args);
        } catch (IllegalArgumentException | IllegalStateException e) {
            System.err.println("jobweaver: " + e.getMessage());
            System.exit(2);
        }
    }

    private static void run(String[] args) {
        Deque<String> rest = new ArrayDeque<>(List.of(args));
        if (rest.isEmpty() || rest.contains("-h") || rest.contains("--help")) {
            System.out.print(USAGE);
            return;
        }
        String command = rest.pop();
        Path root = Path.of("").toAbsolutePath();
        Path home = null;
        int kafkaPort = 9092;
        int postgresPort = 5432;
        Map<Service, Integer> ports = new EnumMap<>(Service.class);
        Map<Service, Integer> replicas = new EnumMap<>(Service.class);
        boolean traces = false;
        boolean aotCache = true;
        boolean together = false;
        int zipkinPort = 9411;
        while (!rest.isEmpty()) {
            String option = rest.pop();
            switch (option) {
                case "--workers" -> replicas.put(Service.WORKER, positive(option, rest));
                case "--schedulers" -> replicas.put(Service.SCHEDULER, positive(option, rest));
                case "--api-port" -> ports.put(Service.API, positive(option, rest));
                case "--scheduler-port" -> ports.put(Service.SCHEDULER, positive(option, rest));
                case "--worker-port" -> ports.put(Service.WORKER, positive(option, rest));
                case "--kafka-port" -> kafkaPort = positive(option, rest);
                case "--postgres-port" -> postgresPort = positive(option, rest);
                case "--traces" -> traces = true;
                case "--no-aot-cache" -> aotCache = false;
                case "--start-together" -> together = true;
                case "--zipkin-port" -> zipkinPort = positive(option, rest);
                case "--home" -> home = Path.of(value(option, rest)).toAbsolutePath();
                case "--root" -> root = Path.of(value(option, rest)).toAbsolutePath();
                default -> throw new IllegalArgumentException("unknown option " + option + "\n" + USAGE);
            }
        }
        if (home == null) {
            home = root.resolve(".jobweaver");
        }
        Ports.requireFree(kafkaPort, "Kafka", "--kafka-port");
        Ports.requireFree(kafkaPort + 1, "Kafka controller", "--kafka-port");
        Ports.requireFree(postgresPort, "PostgreSQL", "--postgres-port");
        LocalStack.Settings settings = new LocalStack.Settings(home, kafkaPort, kafkaPort + 1, postgresPort, "512m",
                Map.of(), false);
        switch (command) {
            case "infra" -> infra(settings);
            case "up" -> up(root, settings, ports, replicas, traces ? zipkinPort : 0,
                    aotCache ? AotCache.directoryUnder(home) : null, !together);
            default -> throw new IllegalArgumentException("unknown command " + command + "\n" + USAGE);
        }
    }

    private static void infra(LocalStack.Settings settings) {
        LocalStack stack = new LocalStack(settings);
        CountDownLatch stopped = onShutdown(stack::close);
        stack.start();
        System.out.println("JobWeaver infrastructure is up:");
        System.out.println("  Kafka       " + stack.kafkaBootstrapServers());
        System.out.println("  PostgreSQL  127.0.0.1:" + settings.postgresPort() + " (" + String.join(", ", Postgres.DATABASES)
                + "; user " + Postgres.USER + ")");
        System.out.println("Press Ctrl-C to stop.");
        await(stopped);
    }

    private static void up(Path root, LocalStack.Settings settings, Map<Service, Integer> ports,
                           Map<Service, Integer> replicas, int zipkinPort, Path aotCaches, boolean oneAtATime) {
        if (zipkinPort > 0) {
            Ports.requireFree(zipkinPort, "Zipkin", "--zipkin-port");
        }
        for (Service service : Service.values()) {
            int base = ports.getOrDefault(service, service.defaultPort());
            for (int n = 0; n < replicas.getOrDefault(service, 1); n++) {
                Ports.requireFree(base + 100 * n, service.module(), "--" + service.module().replace("-service", "") + "-port");
            }
        }
        Platform platform = new Platform(new Platform.Options(root, settings, ports, replicas, Map.of(),
                Platform.Options.jvmWith(System.getenv("JOBWEAVER_JAVA_OPTS")), Duration.ofSeconds(3), Duration.ofSeconds(120), zipkinPort,
                aotCaches, oneAtATime),
                System.out::println);
        if (platform.builtServices().isEmpty()) {
            throw new IllegalStateException("no service is built under " + root + ": run ./jobweaver up from the repository");
        }
        CountDownLatch stopped = onShutdown(() -> {
            System.out.println("\nStopping JobWeaver...");
            platform.close();
            System.out.println("JobWeaver stopped.");
        });
        System.out.println("Starting Kafka, PostgreSQL and " + platform.builtServices().size() + " service(s)...");
        platform.start();
        int apiPort = ports.getOrDefault(Service.API, Service.API.defaultPort());
        System.out.println();
        System.out.println("JobWeaver is up: http://localhost:" + apiPort);
        System.out.println("  jobs API    http://localhost:" + apiPort + "/api/jobs   (OpenAPI: /q/openapi)");
        System.out.println("  Kafka       " + platform.stack().kafkaBootstrapServers());
        System.out.println("  PostgreSQL  127.0.0.1:" + settings.postgresPort() + " (user " + Postgres.USER + ")");
        platform.zipkin().ifPresent(z -> System.out.println("  traces      " + z.uiUrl() + "   (Zipkin: search by traceId)"));
        System.out.println("  logs        " + settings.home().resolve("logs"));
        System.out.println("Press Ctrl-C to stop.");
        await(stopped);
    }

    /** Runs {@code action} on JVM shutdown (Ctrl-C, SIGTERM) and returns a latch that opens when it is done. */
    private static CountDownLatch onShutdown(Runnable action) {
        CountDownLatch done = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                action.run();
            } finally {
                done.countDown();
            }
        }, "jobweaver-stop"));
        return done;
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String value(String option, Deque<String> rest) {
        if (rest.isEmpty()) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return rest.pop();
    }

    private static int positive(String option, Deque<String> rest) {
        String raw = value(option, rest);
        try {
            int n = Integer.parseInt(raw);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(option + " needs a positive whole number, not '" + raw + "'");
    }
}
