package dev.jobweaver.bench.chaos;

import dev.jobweaver.local.AotCache;
import dev.jobweaver.local.Cli;
import dev.jobweaver.local.JobWeaverLocal;
import dev.jobweaver.local.LocalStack;
import dev.jobweaver.local.Platform;
import dev.jobweaver.local.Platform.Service;
import dev.jobweaver.local.Ports;
import dev.jobweaver.local.TopicPartitions;
import dev.jobweaver.bench.BenchCommand;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code jobweaver chaos}: starts a platform of its own and runs a {@link ChaosRun} against it. */
@Command(name = "chaos",
        header = "Kill a service, Kafka or PostgreSQL every interval while jobs flow; check no accepted job is lost.",
        description = {
            "Starts a platform of its own (Kafka, PostgreSQL and the three services, on free ports, in its own home "
                    + "folder, emptied first) and submits no-op jobs at --rate per second for --duration. Every "
                    + "--interval it SIGKILLs one of api, scheduler, worker, kafka and postgres: each round of five "
                    + "kills hits every target once, in an order drawn from --seed. The platform's supervisor "
                    + "restarts a killed service after 1 s; Kafka and PostgreSQL are started again by the run after "
                    + "3 s, on their own data (log and WAL recovery).",
            "",
            "Then it waits (up to --wait) for every accepted job to end, reads the three databases and reports: "
                    + "accepted, refused, completed, failed, lost (accepted but never ended, or unknown: must be 0), "
                    + "jobs started more than once, and the longest wait from acceptance to first start. The report "
                    + "is printed and written to HOME/chaos-report.json; the services' logs are in HOME/logs."},
        footer = {"Durations: 30s, 2m, 500ms, 1h; a bare number is seconds.",
            "Exit status: 0 when no accepted job was lost; 1 when one was (or the run failed); 2 for bad usage."})
public final class ChaosCommand implements Callable<Integer> {

    /** The file in the home folder that marks it as a chaos run's, so that a later run may empty it. */
    static final String MARKER = ".jobweaver-chaos";
    /** The report's file in the home folder. */
    static final String REPORT = "chaos-report.json";

    @Mixin
    Cli.HelpOption help;

    @Spec
    CommandSpec spec;

    @Option(names = "--duration", paramLabel = "D", defaultValue = "10m",
            converter = BenchCommand.PositiveDuration.class,
            description = "How long jobs are submitted and targets killed (default: ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--rate", paramLabel = "R", defaultValue = "200", converter = BenchCommand.PositiveNumber.class,
            description = "No-op jobs offered per second, open loop (default: ${DEFAULT-VALUE}).")
    double rate;

    @Option(names = "--interval", paramLabel = "D", defaultValue = "30s",
            converter = BenchCommand.PositiveDuration.class,
            description = "Time between two kills; the first comes one interval after the start "
                    + "(default: ${DEFAULT-VALUE}).")
    Duration interval;

    @Option(names = "--seed", paramLabel = "N",
            description = "Chooses the order of the kills; the same seed repeats it (default: a random one, "
                    + "printed).")
    Long seed;

    @Option(names = "--wait", paramLabel = "D", defaultValue = "5m", converter = BenchCommand.PositiveDuration.class,
            description = "How long to wait after the submissions for every accepted job to end; a job still open "
                    + "then is lost (default: ${DEFAULT-VALUE}).")
    Duration wait;

    @Option(names = "--workers", paramLabel = "N", converter = Cli.PositiveInt.class,
            description = "Worker replicas (default: ${DEFAULT-VALUE}); a worker kill hits one of them.")
    int workers = 1;

    @Option(names = "--api-port", paramLabel = "P", converter = Cli.Port.class,
            description = "The API's port (default: a free one).")
    Integer apiPort;

    @Option(names = "--kafka-port", paramLabel = "P", converter = Cli.Port.class,
            description = "Kafka's client port; the controller uses P+1 (default: free ones).")
    Integer kafkaPort;

    @Option(names = "--postgres-port", paramLabel = "P", converter = Cli.Port.class,
            description = "PostgreSQL's port (default: a free one).")
    Integer postgresPort;

    @Option(names = "--home", paramLabel = "DIR",
            description = "The run's data, logs and report; emptied first (default: .jobweaver/chaos in the "
                    + "repository). A folder that is not empty and not a previous chaos run's is refused.")
    Path home;

    @Option(names = "--no-aot-cache",
            description = "Start the services without JDK AOT caches. By default they use (and, once per build, "
                    + "train) the caches `up` uses, in .jobweaver/aot, so a killed service is back sooner.")
    boolean noAotCache;

    @Mixin
    Cli.RootOption repository;

    private final PrintStream console;

    /** @param console where the run's lines and the report go */
    public ChaosCommand(PrintStream console) {
        this.console = console;
    }

    /** The repository, absolute. */
    Path root() {
        return repository.root().normalize();
    }

    /** The home folder, absolute: {@code --home}, else {@code .jobweaver/chaos} in the repository. */
    Path home() {
        return home == null ? root().resolve(".jobweaver").resolve("chaos") : home.toAbsolutePath().normalize();
    }

    /** What the run does; settings under which nothing would be submitted or killed are bad usage. */
    ChaosRun.Settings settings(long chosenSeed) {
        try {
            return new ChaosRun.Settings(duration, rate, interval, chosenSeed, wait, ChaosRun.Settings.DEFAULT_DOWN);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    /**
     * The platform to start: the ports asked for, free ones below the ephemeral range for the rest (what it kills is
     * started again on its port: {@link Ports#stable()}); no Zipkin.
     */
    Platform.Options platformOptions(String extraJvmOptions) {
        int kafka = kafkaPort != null ? kafkaPort : Ports.stable();
        int controller = kafkaPort != null ? kafkaPort + 1 : freeOtherThan(kafka);
        Map<Service, Integer> replicas = new EnumMap<>(Service.class);
        replicas.put(Service.API, 1);
        replicas.put(Service.SCHEDULER, 1);
        replicas.put(Service.WORKER, workers);
        // Every worker gets a run-job partition: with more workers than the default count, run-job gets one per worker.
        LocalStack.Settings stack = new LocalStack.Settings(home(), kafka, controller,
                postgresPort != null ? postgresPort : Ports.stable(), "512m",
                TopicPartitions.plan(Map.of(), replicas).counts(), false);
        Map<Service, Integer> ports = new EnumMap<>(Service.class);
        ports.put(Service.API, apiPort != null ? apiPort : Ports.stable());
        ports.put(Service.SCHEDULER, Ports.stable());
        ports.put(Service.WORKER, freeWithRoomFor(workers));
        // A killed service is restarted after 1 s (Kubernetes takes about as long to notice), so that a run measures
        // the platform's recovery rather than a waiting supervisor.
        return new Platform.Options(root(), stack, ports, replicas, Map.of(), Platform.Options.jvmWith(extraJvmOptions),
                Duration.ofSeconds(1), Duration.ofSeconds(180), 0,
                noAotCache ? null : AotCache.directoryUnder(root().resolve(".jobweaver")), true);
    }

    @Override
    public Integer call() {
        long chosenSeed = seed != null ? seed : new java.util.Random().nextLong(1_000_000);
        ChaosRun.Settings settings = settings(chosenSeed);
        JobWeaverLocal.quietInfrastructureLogs();
        if (apiPort != null) {
            Ports.requireFree(apiPort, "api-service", "--api-port");
        }
        if (kafkaPort != null) {
            Ports.requireFree(kafkaPort, "Kafka", "--kafka-port");
            Ports.requireFree(kafkaPort + 1, "Kafka controller", "--kafka-port");
        }
        if (postgresPort != null) {
            Ports.requireFree(postgresPort, "PostgreSQL", "--postgres-port");
        }
        Platform.Options options = platformOptions(System.getenv("JOBWEAVER_JAVA_OPTS"));
        AtomicReference<ChaosRun> running = new AtomicReference<>();
        Platform platform = new Platform(options, line -> {
            ChaosRun run = running.get();
            if (run == null) {
                console.println(line);
            } else {
                run.say(line);
            }
        });
        if (platform.builtServices().size() < Service.values().length) {
            throw new IllegalStateException("the three services must be built under " + options.root()
                    + ": run ./jobweaver chaos from the repository (it builds them)");
        }
        emptyHome(home());
        AtomicBoolean closed = new AtomicBoolean();
        Runnable stop = () -> {
            if (closed.compareAndSet(false, true)) {
                console.println("Stopping the chaos platform...");
                platform.close();
            }
        };
        JobWeaverLocal.onShutdown(stop);
        ChaosReport report;
        try {
            console.println("Starting Kafka, PostgreSQL and the three services in " + home() + " ...");
            platform.start();
            quietDuringTheRun();
            ChaosRun run = new ChaosRun(platform, settings, console::println);
            running.set(run);
            report = run.run();
        } catch (RuntimeException e) {
            console.println("The chaos run failed: " + e.getMessage());
            console.println("The services' logs are in " + home().resolve("logs"));
            stop.run();
            return 1;
        }
        stop.run();
        Path file = home().resolve(REPORT);
        try {
            Files.writeString(file, report.toJson());
        } catch (IOException e) {
            console.println("could not write " + file + ": " + e.getMessage());
        }
        console.println();
        report.summary().forEach(console::println);
        console.println("Report: " + file + "; logs: " + home().resolve("logs"));
        return report.exitCode();
    }

    /**
     * The run prints every kill and every return itself; these would repeat them in another format, or log as an error
     * what a kill is meant to cause (the client's connections to a killed API are reset: counted as "no answer").
     */
    private static void quietDuringTheRun() {
        for (Class<?> repeats : java.util.List.of(dev.jobweaver.local.Postgres.class,
                dev.jobweaver.local.KafkaBroker.class)) {
            java.util.logging.Logger.getLogger(repeats.getName()).setLevel(java.util.logging.Level.WARNING);
        }
        java.util.logging.Logger.getLogger("io.vertx.core.net.impl.ConnectionBase")
                .setLevel(java.util.logging.Level.OFF);
    }

    /**
     * Empties {@code dir} for a new run. Only a folder that is missing, empty or marked as a chaos run's is touched:
     * a mistyped --home must never wipe someone's data.
     */
    static void emptyHome(Path dir) {
        try {
            if (Files.isDirectory(dir) && !Files.exists(dir.resolve(MARKER))) {
                try (Stream<Path> entries = Files.list(dir)) {
                    if (entries.findAny().isPresent()) {
                        throw new IllegalStateException(dir + " is not empty and not a previous chaos run's home:"
                                + " choose another --home");
                    }
                }
            }
            if (Files.exists(dir)) {
                try (Stream<Path> all = Files.walk(dir)) {
                    all.sorted(Comparator.reverseOrder()).filter(p -> !p.equals(dir)).forEach(p -> p.toFile().delete());
                }
            }
            Files.createDirectories(dir);
            Files.writeString(dir.resolve(MARKER), "written by ./jobweaver chaos, which empties this folder at"
                    + " every run\n");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare " + dir + ": " + e.getMessage(), e);
        }
    }

    private static int freeOtherThan(int taken) {
        while (true) {
            int port = Ports.stable();
            if (port != taken) {
                return port;
            }
        }
    }

    /** A free port p with p + 100(n-1) free too for every replica n (replicas listen 100 apart). */
    private static int freeWithRoomFor(int replicas) {
        while (true) {
            int port = Ports.stable();
            boolean room = port + 100 * (replicas - 1) <= 65_535;
            for (int n = 1; n < replicas && room; n++) {
                room = !Ports.inUse(port + 100 * n);
            }
            if (room) {
                return port;
            }
        }
    }
}
