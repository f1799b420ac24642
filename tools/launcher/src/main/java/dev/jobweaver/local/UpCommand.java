package dev.jobweaver.local;

import dev.jobweaver.local.Platform.Service;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code jobweaver up}: Kafka, PostgreSQL and every built service, each its own process, until Ctrl-C or SIGTERM,
 * which stops the services gracefully, then Kafka and PostgreSQL.
 */
@Command(name = "up",
        header = "Start Kafka, PostgreSQL and every built service on this machine; Ctrl-C stops them all.",
        description = {
            "Each service runs in its own process, started one after another (each once the previous is ready), "
                    + "with a supervisor that restarts one that dies. Data lives in the home folder and survives "
                    + "restarts; logs are in DIR/logs. The jobweaver script builds what is missing first.",
            "",
            "The API requires credentials: on its first start in a home folder, up makes an admin API key and the key "
                    + "that encrypts webhook secrets, keeps both in DIR/secrets.properties (readable by you only) and "
                    + "prints the admin key once the platform is up; ./jobweaver key prints it again.",
            "",
            "Extra JVM options for every service: the environment variable JOBWEAVER_JAVA_OPTS (added after the "
                    + "defaults, so they win); for the Kafka broker: JOBWEAVER_KAFKA_JAVA_OPTS.",
            "",
            "With --native the services run as their native executables (which jobweaver build --native makes), with "
                    + "the same configuration, ports, logs and restarts. Unlike jars, missing executables are not "
                    + "built by up (that takes several minutes each): up names them and exits with status 2. Extra "
                    + "options of the executables: JOBWEAVER_NATIVE_OPTS (e.g. -Xmx96m)."})
public final class UpCommand implements Callable<Integer> {

    @Mixin
    Cli.HelpOption help;

    @Option(names = "--workers", paramLabel = "N", converter = Cli.PositiveInt.class,
            description = "Worker replicas (default: ${DEFAULT-VALUE}); replica n listens on the worker port + 100(n-1). "
                    + "run-job gets at least one partition per worker.")
    int workers = 1;

    @Option(names = "--pool", paramLabel = "QUEUES", converter = QueueList.class,
            description = "Start one more standard worker serving only these queues (comma-separated queue names), "
                    + "named worker-<first queue>, on the worker port + 50, + 51, ... Repeat for more pools.")
    List<QueueSet> pools = new ArrayList<>();

    @Option(names = "--worker-jar", paramLabel = "JAR",
            description = "Start a worker of your own beside the platform: a Quarkus application built on "
                    + "jobweaver-worker (its target/quarkus-app/quarkus-run.jar). It serves the queues its own "
                    + "configuration names, with the platform's Kafka and worker database, on the worker port + 70, "
                    + "+ 71, ... Repeat for more.")
    List<Path> workerJars = new ArrayList<>();

    @Option(names = "--schedulers", paramLabel = "N", converter = Cli.PositiveInt.class,
            description = "Scheduler replicas (default: ${DEFAULT-VALUE}); replica n listens on the scheduler port "
                    + "+ 100(n-1). job-created, job-completed and job-failed get at least one partition per "
                    + "scheduler.")
    int schedulers = 1;

    @Option(names = "--api-port", paramLabel = "P", converter = Cli.Port.class,
            description = "API port (default: ${DEFAULT-VALUE}).")
    int apiPort = Service.API.defaultPort();

    @Option(names = "--scheduler-port", paramLabel = "P", converter = Cli.Port.class,
            description = "First scheduler's port (default: ${DEFAULT-VALUE}).")
    int schedulerPort = Service.SCHEDULER.defaultPort();

    @Option(names = "--worker-port", paramLabel = "P", converter = Cli.Port.class,
            description = "First worker's port (default: ${DEFAULT-VALUE}).")
    int workerPort = Service.WORKER.defaultPort();

    @Mixin
    StackOptions stack;

    @Option(names = "--traces",
            description = "Also start a Zipkin trace viewer and export every span to it. Without it no span is "
                    + "recorded; a job's trace id still travels with it, in every log line of the job.")
    boolean traces;

    @Option(names = "--zipkin-port", paramLabel = "P", converter = Cli.Port.class,
            description = "The trace viewer's port, with --traces (default: ${DEFAULT-VALUE}).")
    int zipkinPort = 9411;

    @Option(names = "--no-aot-cache",
            description = "Start the services without JDK AOT caches. By default a service whose cache is missing or "
                    + "stale gets one training start first (once per build); caches live in DIR/aot.")
    boolean noAotCache;

    @Option(names = "--insecure",
            description = "Run the API open, without credentials: every caller is an admin of every tenant. For "
                    + "clients that send no key, on a machine nobody else can reach.")
    boolean insecure;

    @Option(names = "--native",
            description = "Run the services' native executables (<service>/target/*-runner) instead of their jars.")
    boolean nativeExecutables;

    @Option(names = "--start-together",
            description = "Start all services at once instead of one after another.")
    boolean startTogether;

    /** The queues of one {@code --pool}. */
    record QueueSet(List<String> queues) {
    }

    /** Comma-separated queue names, each checked against the queue rule. */
    public static final class QueueList implements ITypeConverter<QueueSet> {
        @Override
        public QueueSet convert(String value) {
            List<String> queues = new ArrayList<>();
            for (String queue : value.split(",", -1)) {
                String name = queue.strip();
                if (!QUEUE.matcher(name).matches()) {
                    throw new TypeConversionException("'" + name + "' is not a queue name: a "
                            + "lower-case letter or digit, then at most 62 lower-case letters, digits or '-'");
                }
                queues.add(name);
            }
            return new QueueSet(List.copyOf(queues));
        }
    }

    private static final Pattern QUEUE = Pattern.compile("[a-z0-9][a-z0-9-]{0,62}");

    /**
     * The worker pools {@code up} starts beside the standard workers: the {@code --pool}s on the worker port + 50 on,
     * then the {@code --worker-jar}s on the worker port + 70 on.
     */
    List<Platform.WorkerPool> workerPools() {
        List<Platform.WorkerPool> all = new ArrayList<>();
        for (int i = 0; i < pools.size(); i++) {
            List<String> queues = pools.get(i).queues();
            all.add(new Platform.WorkerPool("worker-" + queues.getFirst(), null, queues, workerPort + 50 + i));
        }
        for (int i = 0; i < workerJars.size(); i++) {
            Path jar = workerJars.get(i).toAbsolutePath().normalize();
            all.add(new Platform.WorkerPool(jarName(jar), jar, List.of(), workerPort + 70 + i));
        }
        return all;
    }

    /** {@code billing-worker} for {@code .../billing-worker/target/quarkus-app/quarkus-run.jar}; else the file's name. */
    static String jarName(Path jar) {
        Path app = jar.getParent();
        if (app != null && app.getFileName().toString().equals("quarkus-app") && app.getParent() != null
                && app.getParent().getFileName().toString().equals("target") && app.getParent().getParent() != null) {
            return app.getParent().getParent().getFileName().toString();
        }
        String file = jar.getFileName().toString();
        return file.endsWith(".jar") ? file.substring(0, file.length() - 4) : file;
    }

    /** The first HTTP port of each service. */
    Map<Service, Integer> basePorts() {
        Map<Service, Integer> ports = new EnumMap<>(Service.class);
        ports.put(Service.API, apiPort);
        ports.put(Service.SCHEDULER, schedulerPort);
        ports.put(Service.WORKER, workerPort);
        return ports;
    }

    /** How many instances of each service. */
    Map<Service, Integer> replicas() {
        Map<Service, Integer> replicas = new EnumMap<>(Service.class);
        replicas.put(Service.API, 1);
        replicas.put(Service.SCHEDULER, schedulers);
        replicas.put(Service.WORKER, workers);
        return replicas;
    }

    /**
     * The topics' partition counts: what {@code --partitions} asked for, and every topic a service's replicas share
     * raised to the replica count ({@link TopicPartitions}).
     *
     * @throws IllegalArgumentException when {@code --partitions} leaves a replica without a partition
     */
    TopicPartitions.Plan partitionPlan() {
        return TopicPartitions.plan(stack.askedPartitions(), replicas());
    }

    /**
     * How to run the platform, as {@code up} was asked to: {@code extraJvmOptions} follow the JVM defaults,
     * {@code extraNativeOptions} the native ones ({@code --native}).
     */
    Platform.Options platformOptions(String extraJvmOptions, String extraNativeOptions) {
        Path home = stack.home();
        Platform.Options options = new Platform.Options(stack.root(), stack.settings(partitionPlan().counts()),
                basePorts(), replicas(), Map.of(), Platform.Options.jvmWith(extraJvmOptions), Duration.ofSeconds(3),
                Duration.ofSeconds(120), traces ? zipkinPort : 0, noAotCache ? null : AotCache.directoryUnder(home),
                !startTogether, insecure);
        return nativeExecutables ? options.natively(Platform.Options.nativeWith(extraNativeOptions)) : options;
    }

    /** What {@code up --native} says when executables are missing: which, and how to build them. */
    static String missingExecutables(List<Path> missing) {
        return "native executables are missing: " + String.join(", ", missing.stream().map(Path::toString).toList())
                + "; build them with ./jobweaver build --native (several minutes each), or run up without --native";
    }

    /** What {@code --insecure} prints before anything starts, and again once the platform is up. */
    static final String INSECURE_WARNING = """
            *** INSECURE: the API runs without authentication (--insecure). Anyone who can reach its port is an \
            admin of every tenant: keep it on a machine nobody else can reach. ***""";

    /**
     * How to reach the API, printed once the platform is up: with {@code adminKey}, the key, where it is kept and
     * ready curl commands that send it; without (the API runs open), the warning and the same commands without it.
     */
    List<String> access(String adminKey, Path home) {
        String url = "http://localhost:" + apiPort;
        String auth = adminKey == null ? "" : "-H \"Authorization: Bearer " + adminKey + "\" ";
        List<String> lines = new java.util.ArrayList<>();
        if (adminKey == null) {
            lines.add(INSECURE_WARNING);
        } else {
            lines.add("Admin API key: " + adminKey);
            lines.add("  kept in " + PlatformSecrets.file(home) + " (./jobweaver key prints it); send it as "
                    + "Authorization: Bearer <key>. The dashboard asks for it.");
        }
        lines.add("Try it:");
        lines.add("  curl " + auth + url + "/api/jobs");
        lines.add("  curl " + auth + "-H 'Content-Type: application/json' -d '{\"jobType\":\"SIMULATION\","
                + "\"payload\":{\"steps\":[{\"action\":\"LOG\",\"message\":\"hello\"}]}}' " + url + "/api/jobs");
        return lines;
    }

    @Override
    public Integer call() {
        JobWeaverLocal.quietInfrastructureLogs();
        TopicPartitions.Plan partitions = partitionPlan(); // a bad combination is refused before anything starts
        Platform.Options options = platformOptions(System.getenv("JOBWEAVER_JAVA_OPTS"),
                System.getenv("JOBWEAVER_NATIVE_OPTS"));
        Platform platform = new Platform(options, System.out::println);
        // before the ports: what is missing is the first thing to fix
        if (!platform.missingExecutables().isEmpty()) {
            throw new IllegalStateException(missingExecutables(platform.missingExecutables()));
        }
        stack.requireFreePorts();
        if (traces) {
            Ports.requireFree(zipkinPort, "Zipkin", "--zipkin-port");
        }
        for (Service service : Service.values()) {
            int base = basePorts().get(service);
            for (int n = 0; n < replicas().get(service); n++) {
                Ports.requireFree(base + 100 * n, service.module(),
                        "--" + service.module().replace("-service", "") + "-port");
            }
        }
        for (Platform.WorkerPool pool : workerPools()) {
            if (pool.artefact() != null && !Files.isRegularFile(pool.artefact())) {
                throw new IllegalStateException("--worker-jar " + pool.artefact() + " does not exist: build the "
                        + "worker first (./mvnw package in its project)");
            }
            Ports.requireFree(pool.port(), pool.name(), "--worker-port");
        }
        if (platform.builtServices().isEmpty()) {
            throw new IllegalStateException("no service is built under " + options.root()
                    + ": run ./jobweaver up from the repository");
        }
        LocalStack.Settings settings = options.stack();
        java.util.concurrent.CountDownLatch stopped = JobWeaverLocal.onShutdown(() -> {
            System.out.println("\nStopping JobWeaver...");
            platform.close();
            System.out.println("JobWeaver stopped.");
        });
        partitions.notes().forEach(note -> System.out.println("  " + note));
        if (insecure) {
            System.out.println(INSECURE_WARNING);
        }
        System.out.println("Starting Kafka, PostgreSQL and " + platform.builtServices().size() + " service(s)"
                + (nativeExecutables ? " (native executables)" : "") + "...");
        platform.start();
        workerPools().forEach(platform::startWorkerPool);
        System.out.println();
        System.out.println("JobWeaver is up: http://localhost:" + apiPort);
        System.out.println("  jobs API    http://localhost:" + apiPort + "/api/jobs   (OpenAPI: /q/openapi)");
        System.out.println("  Kafka       " + platform.stack().kafkaBootstrapServers());
        System.out.println("  PostgreSQL  127.0.0.1:" + settings.postgresPort() + " (user " + Postgres.USER + ")");
        System.out.println("  partitions  " + TopicPartitions.describe(platform.stack().partitions()));
        platform.zipkin().ifPresent(z -> System.out.println("  traces      " + z.uiUrl()
                + "   (Zipkin: search by traceId)"));
        System.out.println("  logs        " + settings.home().resolve("logs"));
        System.out.println();
        access(platform.adminKey().orElse(null), settings.home()).forEach(System.out::println);
        System.out.println("Press Ctrl-C to stop.");
        JobWeaverLocal.await(stopped);
        return 0;
    }
}
