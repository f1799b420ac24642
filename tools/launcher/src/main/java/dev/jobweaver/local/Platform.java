package dev.jobweaver.local;

import dev.jobweaver.common.messaging.Topics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The whole platform on one machine: the {@link LocalStack} plus every packaged service as its own process, with a
 * supervisor that restarts a service that dies unexpectedly (as Kubernetes would).
 *
 * <p>Used by `./jobweaver up` ({@link JobWeaverLocal}) and by the end-to-end tests, which kill, restart and scale
 * services through {@link #instances(Service)}.
 */
public final class Platform implements AutoCloseable {

    /** The three services, with their database and first HTTP port; replica {@code n} listens on port + 100·(n-1). */
    public enum Service {
        API("api-service", "jobweaver_api", 8080),
        SCHEDULER("scheduler-service", "jobweaver_scheduler", 8081),
        WORKER("worker-service", "jobweaver_worker", 8082);

        private final String module;
        private final String database;
        private final int defaultPort;

        Service(String module, String database, int defaultPort) {
            this.module = module;
            this.database = database;
            this.defaultPort = defaultPort;
        }

        /** The Maven module folder, also the process name. */
        public String module() {
            return module;
        }

        /** The database it owns. */
        public String database() {
            return database;
        }

        /** Its HTTP port when nothing else is asked for. */
        public int defaultPort() {
            return defaultPort;
        }

        /** The packaged application under the repository root. */
        public Path jar(Path root) {
            return root.resolve(module).resolve("target/quarkus-app/quarkus-run.jar");
        }

        /** The native executable under the repository root, where {@code package -Pnative} writes it. */
        public Path executable(Path root) {
            return root.resolve(module).resolve("target/jobweaver-" + module + "-1.0.0-SNAPSHOT-runner");
        }

        /** What runs: the {@link #executable} when {@code nativeExecutables}, else the {@link #jar}. */
        public Path artefact(Path root, boolean nativeExecutables) {
            return nativeExecutables ? executable(root) : jar(root);
        }
    }

    /**
     * How to run the platform.
     *
     * @param root the repository root (where the service modules are built)
     * @param stack where and on which ports the infrastructure runs
     * @param basePorts the first HTTP port of each service
     * @param replicas how many instances of each service
     * @param config extra Quarkus configuration per service (e.g. a short backoff in tests)
     * @param jvmOptions options for every service JVM
     * @param restartDelay how long the supervisor waits before restarting a dead service; null: no restarts
     * @param readyTimeout how long a service may take to become ready
     * @param zipkinPort when positive, a Zipkin server runs on this port and every service exports its spans there
     * @param aotCaches when not null, the folder of the services' JDK AOT caches ({@link AotCache}): a service whose
     *                  cache is missing or stale gets one training start before its real start
     * @param oneAtATime start the instances one after another, each once the previous is ready, instead of all at
     *                   once (on 2 cores, three JVMs starting together each take three times as long)
     * @param insecure run the API open ({@code jobweaver.security.enabled=false}): every caller is an admin of every
     *                 tenant; otherwise every request needs credentials, and the admin key of the home's
     *                 {@link PlatformSecrets} works
     * @param nativeExecutables run each service's native executable ({@link Service#executable}) instead of its jar;
     *                          {@code jvmOptions} are then options a native executable accepts
     *                          ({@link Options#NATIVE}) and there are no AOT caches
     */
    /** The heap cap of the schedulers and workers ({@link Options#DEFAULT_JVM}). */
    static final String DEFAULT_MAX_HEAP = "-Xmx58m";

    /**
     * The API's heap cap: the default plus 14 MB for Hibernate Reactive (the Panache entities of schedules, subscriptions
     * and deliveries), whose metamodel and query caches stay in the heap. A cap of its own in {@code JOBWEAVER_JAVA_OPTS}
     * still wins, coming later.
     */
    static final String API_MAX_HEAP = "-Xmx72m";

    public record Options(Path root, LocalStack.Settings stack, Map<Service, Integer> basePorts,
                          Map<Service, Integer> replicas, Map<Service, Map<String, String>> config,
                          List<String> jvmOptions, Duration restartDelay, Duration readyTimeout, int zipkinPort,
                          Path aotCaches, boolean oneAtATime, boolean insecure, boolean nativeExecutables) {

        /** Running the services' jars. */
        public Options(Path root, LocalStack.Settings stack, Map<Service, Integer> basePorts,
                       Map<Service, Integer> replicas, Map<Service, Map<String, String>> config,
                       List<String> jvmOptions, Duration restartDelay, Duration readyTimeout, int zipkinPort,
                       Path aotCaches, boolean oneAtATime, boolean insecure) {
            this(root, stack, basePorts, replicas, config, jvmOptions, restartDelay, readyTimeout, zipkinPort,
                    aotCaches, oneAtATime, insecure, false);
        }

        /** Secured. */
        public Options(Path root, LocalStack.Settings stack, Map<Service, Integer> basePorts,
                       Map<Service, Integer> replicas, Map<Service, Map<String, String>> config,
                       List<String> jvmOptions, Duration restartDelay, Duration readyTimeout, int zipkinPort,
                       Path aotCaches, boolean oneAtATime) {
            this(root, stack, basePorts, replicas, config, jvmOptions, restartDelay, readyTimeout, zipkinPort,
                    aotCaches, oneAtATime, false);
        }

        /** Secured, without AOT caches, all instances starting at once (what the end-to-end tests use). */
        public Options(Path root, LocalStack.Settings stack, Map<Service, Integer> basePorts,
                       Map<Service, Integer> replicas, Map<Service, Map<String, String>> config,
                       List<String> jvmOptions, Duration restartDelay, Duration readyTimeout, int zipkinPort) {
            this(root, stack, basePorts, replicas, config, jvmOptions, restartDelay, readyTimeout, zipkinPort, null,
                    false);
        }

        /**
         * The default JVM options of a service, chosen by measurement on the 2-core machine: a
         * small heap (live data after a full GC: api 28, scheduler 19, worker 17 MB) with
         * the serial collector; C1 only ({@code TieredStopAtLevel=1}), which halves the code cache, drops C2's
         * compiler arenas and a third of the start-up CPU, and was faster than C2 in 3000-job bursts on 2 cores (C2's
         * compiler threads compete with the services); and malloc'd memory the JVM freed given back every 5 s.
         *
         * <p>Compact object headers ({@code -XX:+UseCompactObjectHeaders}, JEP 519, a product option since JDK 25):
         * 8-byte headers instead of 12, so the small objects a job makes (records, events, futures) take less heap and
         * fewer of them are promoted. With them, 128 requests in flight stayed under 200 MB RSS in every service,
         * where 64 had been the most that fit (measured 2026-11 on the 2-core machine).
         *
         * <p>The young generation is fixed at 28 MB with survivor spaces of 7 MB ({@code SurvivorRatio=2}): records in
         * flight during a burst (awaiting their Kafka acknowledgement or their commit) outlive a young collection, and
         * in survivors that are too small (1.7 MB by default; 4 MB was still too small) they were promoted, so the old
         * generation filled with short-lived garbage and grew to 85 MB around a live set of 18-28 MB (scheduler RSS
         * 239-262 MB with 128 in flight). With room to age in the young generation they die there, and the old
         * generation stays near the live data. {@code -XX:TargetSurvivorRatio=90} lets them fill 90% of a survivor
         * space before the collector starts promoting early (the default, 50%, wasted half of it): the worker parks a
         * run's virtual thread while its attempt row and outcome are written, and those stacks (about 6 KB each) had
         * filled its old generation to 32 MB; with 90% it held 22 MB. {@code -Xmx58m} caps what is left to the old
         * generation (30 MB) should promotion rise anyway: a full collection then runs instead of the heap growing,
         * since everything else a service maps (AOT cache 80 MB, code, the JVM itself, malloc) already takes
         * 133-142 MB. The heap is all touched within a long run, so the cap is what decides the RSS target: with
         * 64 MB the API reached 202 MB over the reference sequence of bench runs; with 58 MB the same runs kept every
         * service at 195 MB or less at the same collector CPU (measured 2026-11-25 on the 2-core machine).
         * {@code -XX:-ShrinkHeapInSteps} lets a full collection give back everything above the free-ratio at once
         * instead of a little at a time. {@code -Xms48m} leaves the old generation 20 MB at start for the AOT cache's
         * archived heap objects (with too little the JVM refuses the cache and does not start).
         */
        public static final List<String> DEFAULT_JVM = List.of("-Xms48m", DEFAULT_MAX_HEAP, "-Xmn28m",
                "-XX:SurvivorRatio=2", "-XX:TargetSurvivorRatio=90", "-XX:-ShrinkHeapInSteps", "-XX:+UseSerialGC",
                "-XX:+UseCompactObjectHeaders", "-XX:TieredStopAtLevel=1", "-XX:TrimNativeHeapInterval=5000",
                "-XX:+ExitOnOutOfMemoryError");

        /**
         * The default JVM options followed by {@code extra} (split on white space), so an operator can add or override
         * one, e.g. {@code JOBWEAVER_JAVA_OPTS=-XX:StartFlightRecording=filename=api.jfr}; null or blank adds nothing.
         */
        public static List<String> jvmWith(String extra) {
            return Processes.withExtraOptions(DEFAULT_JVM, extra);
        }

        /**
         * The options of a native executable: a heap cap, and an exit on running out of heap (as on the JVM: the
         * supervisor then restarts the service instead of it limping on). A native executable has no JIT, no class
         * metadata and no AOT cache to map; its image heap (the objects built at build time) is mapped from the file.
         * The cap bounds what the serial collector lets the heap grow to, the API's larger
         * ({@link #NATIVE_API_MAX_HEAP}).
         */
        public static final List<String> NATIVE = List.of(NATIVE_MAX_HEAP, "-XX:+ExitOnOutOfMemoryError");

        /** {@link #NATIVE} followed by {@code extra} (split on white space); null or blank adds nothing. */
        public static List<String> nativeWith(String extra) {
            return Processes.withExtraOptions(NATIVE, extra);
        }

        /** These options with the services' native executables instead of their jars, without AOT caches. */
        public Options natively(List<String> nativeOptions) {
            return new Options(root, stack, basePorts, replicas, config, nativeOptions, restartDelay, readyTimeout,
                    zipkinPort, null, oneAtATime, insecure, true);
        }
    }

    /**
     * The heap cap of a native scheduler and worker ({@link Options#NATIVE}). In a 5,000-job burst at 64 connections
     * on the 2-core machine (2026-11-29) the scheduler peaked at 111 MB RSS and the worker at 117 MB with
     * {@code -Xmx64m}; with {@code -Xmx40m} at 102 and 98 MB, each a single run. What stays resident beyond the heap
     * is the executable's own pages: of the scheduler's 80 MiB idle (smaps, 2026-11-29), 29 MiB are code, 23 MiB
     * the read-only and 14.5 MiB the writable image heap, 11 MiB the Java heap, under 2 MiB malloc and thread stacks.
     * A lower cap does not lower the peak: with {@code -Xmx32m} the scheduler still reached 127 MB in a 20,000-job
     * burst (one run, 2026-11-30, alternated with this cap, which reached 113-125 MB), as the heap's resident pages
     * pass the cap while a full collection copies the old generation.
     */
    static final String NATIVE_MAX_HEAP = "-Xmx40m";

    /**
     * The heap cap of the native API: Hibernate Reactive's metamodel and query caches live in its heap too, and its
     * outbox holds submissions while Kafka is down. No cap brings it under 100 MB: its executable's own pages alone are
     * 104 MiB resident once it has started (smaps, 2026-11-29: 49 MiB code, 33 MiB read-only and 22 MiB writable
     * image heap, of a 160 MB file), before its 29 MiB of Java heap at idle. In the same burst it peaked at 159 MB
     * with {@code -Xmx80m} and 141 MB with {@code -Xmx40m}.
     */
    static final String NATIVE_API_MAX_HEAP = "-Xmx80m";

    /** The state file's key naming what runs the services: {@link #RUNTIME_JVM} or {@link #RUNTIME_NATIVE}. */
    public static final String STATE_RUNTIME = "platform.runtime";
    public static final String RUNTIME_JVM = "JVM";
    public static final String RUNTIME_NATIVE = "native";

    /**
     * The services sample {@code parentbased_traceidratio} (fixed at build time); the ratio is run-time configuration,
     * 1.0 by default.
     */
    static final String SAMPLER_RATIO = "quarkus.otel.traces.sampler.arg";

    /** Whether the reactive SQL client makes a span per statement (run-time configuration, on by default). */
    static final String SQL_CLIENT_SPANS = "quarkus.otel.instrument.vertx-sql-client";

    /** Whether Vert.x makes a span per HTTP request the service serves (run-time configuration, on by default). */
    static final String HTTP_SERVER_SPANS = "quarkus.otel.instrument.vertx-http";

    /**
     * Whether SmallRye's Kafka connector makes a span per record sent and received and carries its context in the
     * record's headers (run-time configuration of every channel, on by default).
     */
    static final String KAFKA_RECORD_SPANS = "mp.messaging.connector.smallrye-kafka.tracing-enabled";

    /** The API's switch between secured (its default) and open ({@link Options#insecure()}). */
    static final String SECURITY_ENABLED = "jobweaver.security.enabled";

    /** The number of Kafka consumers a worker runs on {@code run-job} (the channel's run-time configuration). */
    static final String RUN_JOB_CONSUMERS = "mp.messaging.incoming.run-job-in.concurrency";

    /**
     * The most consumers a worker runs on {@code run-job}: the worker runtime's own default (its microprofile-config.properties), what
     * one worker on the default three partitions was measured with.
     */
    static final int MAX_RUN_JOB_CONSUMERS = 3;

    private final Options options;
    private final LocalStack stack;
    private final Zipkin zipkin;
    private final Map<Service, List<ServiceProcess>> instances = new HashMap<>();
    private final List<ServiceProcess> pools = new CopyOnWriteArrayList<>();
    private final List<Thread> supervisors = new CopyOnWriteArrayList<>();
    private final Map<String, Duration> readyTimes = new java.util.concurrent.ConcurrentHashMap<>();
    private final java.util.Set<ServiceProcess> retired = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final Consumer<String> out;
    private volatile boolean stopping;
    /** Unexpected exits of services seen by the supervisors since the start. */
    private final java.util.concurrent.atomic.AtomicInteger unexpectedExits = new java.util.concurrent.atomic.AtomicInteger();
    private final Object starting = new Object();
    private volatile ServiceProcess training;
    /** The API's secrets, read from (or first written to) the home when the platform starts. */
    private volatile PlatformSecrets secrets;

    /** @param out where user-facing progress lines go (the console for `up`, the test log for e2e) */
    public Platform(Options options, Consumer<String> out) {
        this.options = options;
        this.out = out;
        this.stack = new LocalStack(options.stack());
        this.zipkin = options.zipkinPort() > 0
                ? new Zipkin(Zipkin.jarUnder(options.root()), options.zipkinPort(),
                options.stack().home().resolve("logs").resolve("zipkin.log"))
                : null;
    }

    /** The trace viewer, when the platform runs with traces on. */
    public java.util.Optional<Zipkin> zipkin() {
        return java.util.Optional.ofNullable(zipkin);
    }

    /** Services whose jar (or native executable) exists: `up` starts every service built so far. */
    public List<Service> builtServices() {
        return java.util.Arrays.stream(Service.values()).filter(s -> Files.exists(artefact(s))).toList();
    }

    /** The native executables that do not exist, when the platform runs them; none when it runs jars. */
    public List<Path> missingExecutables() {
        if (!options.nativeExecutables()) {
            return List.of();
        }
        return java.util.Arrays.stream(Service.values()).map(this::artefact).filter(p -> !Files.exists(p)).toList();
    }

    private Path artefact(Service service) {
        return service.artefact(options.root(), options.nativeExecutables());
    }

    /** Starts the infrastructure, then every built service (all instances at once), and waits until all are ready. */
    public void start() {
        // Before anything else starts: a home whose secrets file is damaged is refused with nothing to stop.
        loadSecrets();
        var viewer = zipkin == null ? java.util.concurrent.CompletableFuture.<Void>completedFuture(null)
                : Processes.inBackground("zipkin-start", zipkin.reapedBy(stack.reaper())::start);
        stack.start();
        // The members of the last run are gone; without this, partitions of an instance not started this time would
        // wait for its session to time out (StaticMembers).
        StaticMembers.removeAll(stack.kafkaBootstrapServers());
        Processes.await(viewer, "the trace viewer");
        Path logs = options.stack().home().resolve("logs");
        migrateSchemas(logs);
        trainAotCaches(logs);
        List<ServiceProcess> all = new ArrayList<>();
        for (Service service : builtServices()) {
            List<ServiceProcess> replicas = new CopyOnWriteArrayList<>();
            int count = options.replicas().getOrDefault(service, 1);
            for (int n = 1; n <= count; n++) {
                ServiceProcess process = new ServiceProcess(spec(service, n), logs).reapedBy(stack.reaper());
                replicas.add(process);
                all.add(process);
            }
            instances.put(service, replicas);
        }
        if (!options.oneAtATime()) {
            all.forEach(ServiceProcess::start);
        }
        for (ServiceProcess process : all) {
            if (stopping) {
                throw new IllegalStateException("the platform is stopping");
            }
            if (options.oneAtATime()) {
                startUnlessStopping(process);
            }
            Duration took;
            try {
                took = process.awaitReady(options.readyTimeout());
            } catch (IllegalStateException e) {
                out.accept(process.spec().name() + " did not start; the end of its log:\n" + tail(process.logFile(), 15)
                        + outsideLogging(process.outFile()));
                throw e;
            }
            readyTimes.put(process.spec().name(), took);
            out.accept(String.format("  %-20s ready in %5.2f s  %s%s", process.spec().name(), took.toMillis() / 1000.0,
                    process.url(), process.spec().jvmOptions().stream().anyMatch(o -> o.startsWith("-XX:AOTCache="))
                            ? "  (AOT cache)" : ""));
        }
        writeState();
        if (options.restartDelay() != null) {
            all.forEach(this::supervise);
        }
    }

    /**
     * Brings every built service's database to its build's schema, the three at once, before any service starts: the
     * services themselves run without JDBC ({@link SchemaMigration} says why).
     */
    private void migrateSchemas(Path logs) {
        long started = System.nanoTime();
        List<java.util.concurrent.CompletableFuture<Void>> migrations = builtServices().stream()
                .map(service -> {
                    ServiceProcess.Spec spec = spec(service, 1);
                    Map<String, String> config = new HashMap<>(spec.config());
                    config.putAll(stack.migrationConfig(service.database()));
                    SchemaMigration migration = new SchemaMigration(spec.name(), spec.artefact(), config,
                            spec.environment(), logs);
                    return Processes.inBackground(spec.name() + "-migration", migration::run);
                })
                .toList();
        migrations.forEach(m -> Processes.await(m, "a schema migration"));
        out.accept(String.format("  schemas migrated in %.1f s", (System.nanoTime() - started) / 1e9));
    }

    /**
     * The AOT cache of {@code service} for the current build, JVM and options, or null when the platform runs without
     * caches (or JOBWEAVER_JAVA_OPTS already names one).
     */
    AotCache aotCache(Service service) {
        if (options.aotCaches() == null || options.nativeExecutables() || AotCache.namedIn(options.jvmOptions())) {
            return null;
        }
        Path application = service.jar(options.root()).getParent();
        return new AotCache(options.aotCaches(), service.module(),
                AotCache.fingerprint(application, options.jvmOptions(), AotCache.currentJvm()),
                AotCache.profilesAreRead(options.jvmOptions()));
    }

    /**
     * Gives every built service whose AOT cache is missing or stale one training start: it starts with
     * {@code -XX:AOTCacheOutput}, becomes ready, and stops gracefully, and its JVM writes the cache as it exits. The
     * services train one after another, so that each training sees the start-up of a service alone. A training that
     * fails costs only speed: the service then starts without a cache.
     */
    private void trainAotCaches(Path logs) {
        List<Service> stale = builtServices().stream()
                .filter(s -> aotCache(s) != null && !aotCache(s).isUsable())
                .toList();
        if (stale.isEmpty()) {
            return;
        }
        try {
            Files.createDirectories(options.aotCaches());
        } catch (java.io.IOException e) {
            out.accept("  no AOT caches: cannot create " + options.aotCaches() + " (" + e.getMessage() + ")");
            return;
        }
        out.accept("  training the start-up (AOT) cache of " + String.join(", ", stale.stream().map(Service::module)
                .toList()) + ": once per build, 15-30 s each");
        for (Service service : stale) {
            AotCache cache = aotCache(service);
            ServiceProcess.Spec real = spec(service, 1);
            List<String> jvm = new ArrayList<>(options.jvmOptions());
            jvm.addAll(cache.trainingOptions());
            training = new ServiceProcess(new ServiceProcess.Spec(real.name() + "-aot-training",
                    real.artefact(), real.port(), real.config(), jvm, real.environment()), logs)
                    .reapedBy(stack.reaper());
            long started = System.nanoTime();
            try {
                startUnlessStopping(training);
                training.awaitReady(options.readyTimeout());
            } catch (RuntimeException e) {
                out.accept("  " + service.module() + ": AOT training start failed (" + e.getMessage()
                        + "); it starts without a cache");
            } finally {
                training.stop(Duration.ofSeconds(90)); // the JVM assembles the cache while it exits
            }
            if (stopping) {
                cache.discardTrainingOutput();
                return;
            }
            if (cache.commit()) {
                out.accept(String.format("  %-20s AOT cache trained in %4.1f s", service.module(),
                        (System.nanoTime() - started) / 1e9));
            } else {
                cache.discardTrainingOutput();
                out.accept("  " + service.module() + ": no AOT cache was written; see " + training.logFile());
            }
        }
    }

    /**
     * Starts {@code process} unless {@link #close()} has begun; a process that starts while close() runs is stopped
     * again, so that a Ctrl-C during a one-after-another start leaves no service behind.
     */
    private void startUnlessStopping(ServiceProcess process) {
        synchronized (starting) {
            if (stopping) {
                throw new IllegalStateException("the platform is stopping");
            }
            process.start();
        }
    }

    /** The infrastructure. */
    public LocalStack stack() {
        return stack;
    }

    /** The running instances of {@code service}, replica 1 first. */
    public List<ServiceProcess> instances(Service service) {
        return instances.getOrDefault(service, List.of());
    }

    /** Adds one more instance of {@code service}, started and ready (scaling out in tests). */
    public ServiceProcess addInstance(Service service) {
        List<ServiceProcess> replicas = instances.computeIfAbsent(service, s -> new CopyOnWriteArrayList<>());
        ServiceProcess process = new ServiceProcess(spec(service, replicas.size() + 1),
                options.stack().home().resolve("logs")).reapedBy(stack.reaper());
        process.start();
        readyTimes.put(process.spec().name(), process.awaitReady(options.readyTimeout()));
        replicas.add(process);
        writeState();
        if (options.restartDelay() != null) {
            supervise(process);
        }
        return process;
    }

    /**
     * A worker pool beside the standard workers: its own process serving {@code queues}, as {@code up --pool} and
     * {@code up --worker-jar} start one.
     *
     * @param name the instance's name: its log file, its worker id, its static group membership
     * @param artefact the application to run (a Quarkus {@code quarkus-run.jar}); null for the standard worker's
     * @param queues the queues it serves; empty: those its own configuration names
     * @param port its HTTP port (health, metrics)
     */
    public record WorkerPool(String name, Path artefact, List<String> queues, int port) {

        public WorkerPool {
            queues = List.copyOf(queues);
        }
    }

    /**
     * Starts {@code pool} and waits until it is ready; the supervisor restarts it as any service, and {@link #close}
     * stops it with the workers. Its database is the standard worker's, already migrated: a pool runs the same worker
     * runtime, whose attempts are keyed by run, so pools share it without meeting.
     */
    public ServiceProcess startWorkerPool(WorkerPool pool) {
        ServiceProcess.Spec standard = spec(Service.WORKER, 1);
        Map<String, String> config;
        if (pool.artefact() == null) {
            // the standard worker: its own settings (and --config worker:...) hold for its pools too
            config = new HashMap<>(standard.config());
            // its run-job consumer count is sized to run-job's partitions; a pool's queues have their own topics
            config.remove(RUN_JOB_CONSUMERS);
        } else {
            // another application: only what every worker shares, none of the standard worker's own settings, which
            // a worker without its handlers would refuse as unknown keys of jobweaver.worker
            config = platformConfig(Service.WORKER.database(), pool.name(), pool.port());
        }
        config.put("quarkus.http.port", Integer.toString(pool.port()));
        config.put("jobweaver.worker.worker-id", pool.name());
        config.put("jobweaver.kafka.instance-id", pool.name());
        if (pool.queues().isEmpty()) {
            config.remove("jobweaver.worker.queues");
        } else {
            config.put("jobweaver.worker.queues", String.join(",", pool.queues()));
        }
        Path artefact = pool.artefact() == null ? standard.artefact() : pool.artefact();
        // A team's jar beside native services still runs on a JVM, with the JVM's defaults.
        List<String> runOptions = options.nativeExecutables() && artefact.toString().endsWith(".jar")
                ? Options.DEFAULT_JVM : options.jvmOptions();
        ServiceProcess process = new ServiceProcess(new ServiceProcess.Spec(pool.name(), artefact, pool.port(), config,
                List.copyOf(runOptions), standard.environment()),
                options.stack().home().resolve("logs")).reapedBy(stack.reaper());
        synchronized (starting) {
            if (stopping) {
                throw new IllegalStateException("the platform is stopping");
            }
            pools.add(process);
            process.start();
        }
        Duration took;
        try {
            took = process.awaitReady(options.readyTimeout());
        } catch (RuntimeException e) {
            // not a pool of the platform: a later start of one by the same name begins afresh
            pools.remove(process);
            process.stop(Duration.ofSeconds(10));
            out.accept(pool.name() + " did not start; the end of its log:\n" + tail(process.logFile(), 15)
                    + outsideLogging(process.outFile()));
            throw e;
        }
        readyTimes.put(pool.name(), took);
        out.accept(String.format("  %-20s ready in %5.2f s  %s%s", pool.name(), took.toMillis() / 1000.0,
                process.url(), pool.queues().isEmpty() ? "" : "  (queues " + String.join(",", pool.queues()) + ")"));
        writeState();
        if (options.restartDelay() != null) {
            supervise(process);
        }
        return process;
    }

    /** The worker pools started beside the standard workers, in the order they were started. */
    public List<ServiceProcess> workerPools() {
        return List.copyOf(pools);
    }

    /** Stops the newest instance of {@code service} gracefully, for good (scaling in); the supervisor lets it go. */
    public void removeInstance(Service service) {
        List<ServiceProcess> replicas = instances(service);
        if (replicas.size() < 2) {
            throw new IllegalStateException("the last instance of " + service.module() + " stays");
        }
        ServiceProcess last = replicas.getLast();
        retired.add(last);
        replicas.remove(last);
        last.stop(Duration.ofSeconds(40));
        // A static member does not leave its groups when it stops; this one is not coming back (StaticMembers).
        StaticMembers.removeInstance(stack.kafkaBootstrapServers(), last.spec().name());
    }

    /** The environment variable that names the public key of bearer JWTs (a PEM file or a JWKS URL). */
    static final String JWT_PUBLIC_KEY_LOCATION = "JOBWEAVER_JWT_PUBLIC_KEY_LOCATION";

    /** The file in the home whose public key the API checks bearer JWTs against, unless the environment names one. */
    static final String JWT_PUBLIC_KEY_FILE = "jwt-public.pem";

    /**
     * What the API process gets in its environment: its secrets, and where the public key of bearer JWTs is:
     * {@code <home>/jwt-public.pem} unless the launcher's own environment ({@code launcher}) names a location. That
     * file holds a key nobody can sign for until an identity provider's key replaces it ({@link #ensureJwtPublicKey}),
     * so until then the API accepts API keys only.
     */
    static Map<String, String> apiEnvironment(PlatformSecrets secrets, Path home, Map<String, String> launcher) {
        Map<String, String> environment = new HashMap<>(secrets.apiEnvironment());
        if (launcher.getOrDefault(JWT_PUBLIC_KEY_LOCATION, "").isBlank()) {
            environment.put(JWT_PUBLIC_KEY_LOCATION, home.resolve(JWT_PUBLIC_KEY_FILE).toString());
        }
        return Map.copyOf(environment);
    }

    /**
     * Reads the API's secrets from the home, making them on its first start ({@link PlatformSecrets}), and makes sure
     * the JWT public key the API is pointed at exists.
     */
    void loadSecrets() {
        secrets = PlatformSecrets.loadOrCreate(options.stack().home());
        if (System.getenv().getOrDefault(JWT_PUBLIC_KEY_LOCATION, "").isBlank()) {
            ensureJwtPublicKey(options.stack().home().resolve(JWT_PUBLIC_KEY_FILE));
        }
    }

    /**
     * Writes to {@code file}, unless it exists, the public half of a fresh RSA key pair whose private half is never
     * kept: no token verifies against it. The API's JWT verification needs a readable key as soon as a request without
     * an API key arrives (without one it fails such requests with a 500 instead of answering 401), and a platform on one
     * machine has no identity provider; replacing the file with a provider's key makes its tokens work.
     */
    static void ensureJwtPublicKey(Path file) {
        if (Files.exists(file)) {
            return;
        }
        try {
            java.security.KeyPairGenerator generator = java.security.KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            byte[] der = generator.generateKeyPair().getPublic().getEncoded();
            String pem = "-----BEGIN PUBLIC KEY-----\n"
                    + java.util.Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
                    + "\n-----END PUBLIC KEY-----\n";
            Files.createDirectories(file.getParent());
            Files.writeString(file, pem);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JDK cannot make RSA keys", e);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("could not write " + file, e);
        }
    }

    /**
     * What every process of the platform is given, whatever it is: its database and Kafka, its port, its static group
     * membership, and how its spans go (or do not).
     */
    private Map<String, String> platformConfig(String database, String name, int port) {
        Map<String, String> config = new HashMap<>(stack.serviceConfig(database));
        config.put("quarkus.http.port", Integer.toString(port));
        // Static group membership under a name that survives restarts: a restarted instance takes its partitions
        // back at once instead of waiting for its previous self to time out of the group (StaticMembership).
        config.put("jobweaver.kafka.instance-id", name);
        // OTLP is fixed on at build time for clusters; on one machine no collector listens, so its sender would
        // log a refused connection for every batch. Zipkin (--traces) is the local viewer instead.
        config.put("quarkus.log.category.\"io.quarkus.opentelemetry.runtime.exporter.otlp\".level", "OFF");
        if (zipkin != null) {
            config.putAll(zipkin.serviceConfig());
        } else {
            config.putAll(withoutTraceViewer());
        }
        return config;
    }

    /** How instance {@code replica} (from 1) of {@code service} runs. */
    ServiceProcess.Spec spec(Service service, int replica) {
        int port = options.basePorts().getOrDefault(service, service.defaultPort()) + 100 * (replica - 1);
        String name = replica == 1 ? service.module() : service.module() + "-" + replica;
        Map<String, String> config = platformConfig(service.database(), name, port);
        if (service == Service.WORKER) {
            config.put("jobweaver.worker.worker-id", name); // names the instance in execution_attempts and outcomes
            // As for webhooks below: HTTP jobs on a laptop call local services. The standard worker's own setting,
            // which its pools share; an application of a team's own has no HTTP handler and would refuse the key.
            config.put("jobweaver.worker.http.allow-private", "true");
            Integer runJob = stack.partitions().get(Topics.RUN_JOB);
            if (runJob != null) {
                config.put(RUN_JOB_CONSUMERS, Integer.toString(
                        runJobConsumers(runJob, options.replicas().getOrDefault(Service.WORKER, 1))));
            }
        }
        if (service == Service.API) {
            // A platform on a laptop calls local services: webhook deliveries may reach loopback and private
            // addresses here, unlike in the Kubernetes overlays (a --config api:... entry still overrides this).
            config.put("jobweaver.api.notifications.allow-private", "true");
            if (options.insecure()) {
                config.put(SECURITY_ENABLED, "false");
            }
        }
        config.putAll(options.config().getOrDefault(service, Map.of()));
        List<String> jvm = new ArrayList<>(options.jvmOptions());
        if (service == Service.API) {
            // Hibernate Reactive's session factory and query caches live in the API's heap: with the default cap it
            // ran out of heap while Kafka was down and the outbox took the submissions.
            jvm.replaceAll(option -> option.equals(DEFAULT_MAX_HEAP) ? API_MAX_HEAP
                    : option.equals(NATIVE_MAX_HEAP) ? NATIVE_API_MAX_HEAP : option);
        }
        AotCache cache = aotCache(service);
        if (cache != null) {
            jvm.addAll(cache.runOptions());
        }
        Map<String, String> environment = service == Service.API && secrets != null
                ? apiEnvironment(secrets, options.stack().home(), System.getenv()) : Map.of();
        return new ServiceProcess.Spec(name, artefact(service), port, config, List.copyOf(jvm),
                environment);
    }

    /**
     * How many consumers each of {@code workers} workers runs on {@code run-job} with {@code partitions} partitions:
     * as many as the partitions of its even share, at most {@link #MAX_RUN_JOB_CONSUMERS}.
     *
     * <p>Why: Kafka gives a partition to one consumer at a time, so with 3 partitions and 3 workers of 3 consumers each,
     * six consumers would hold nothing, each still a polling thread, a heartbeat thread, buffers and metrics in a
     * 58 MB heap. A consumer may hold several partitions, so beyond the cap a worker's consumers share them
     * (12 partitions on 3 workers: 3 consumers each, one of them with 2 partitions).
     */
    static int runJobConsumers(int partitions, int workers) {
        int share = (partitions + workers - 1) / workers;
        return Math.max(1, Math.min(MAX_RUN_JOB_CONSUMERS, share));
    }

    /**
     * What the services run with when no trace viewer is started: every span would be exported to nobody, so none is
     * recorded, and the spans that would only ever be unrecorded shells are not made at all. The job's trace id still
     * travels in the events themselves (the API answers it, every log line of the job carries it); {@code --traces}
     * records everything.
     */
    static Map<String, String> withoutTraceViewer() {
        return Map.of(
                SAMPLER_RATIO, "0.0",
                // A span per SQL statement: 2% of the API's CPU in a burst (JFR).
                SQL_CLIENT_SPANS, "false",
                // A span per HTTP request: 9-11% of the API's CPU in a burst (JFR). The API then joins a client's
                // traceparent itself (JobSubmissionService.jobContext).
                HTTP_SERVER_SPANS, "false",
                // A span per Kafka record, five records per job, plus their header context: 8-15% of the platform's
                // throughput in a 20,000-job burst (1,387-1,548 jobs/s without, 1,275-1,402 with).
                KAFKA_RECORD_SPANS, "false");
    }

    /**
     * The admin key a client sends as {@code Authorization: Bearer}, once the platform has started; empty when the API
     * runs open ({@link Options#insecure()}), which needs none.
     */
    public java.util.Optional<String> adminKey() {
        PlatformSecrets current = secrets;
        return options.insecure() || current == null ? java.util.Optional.empty()
                : java.util.Optional.of(current.adminKey());
    }

    /** The value of {@link #STATE_SECURITY} in the state file: whether clients need the admin key. */
    public static final String SECURED = "secured";
    public static final String INSECURE = "insecure";

    /** The state file's key that says whether the API runs secured ({@link #SECURED}) or open ({@link #INSECURE}). */
    public static final String STATE_SECURITY = "api.security";

    /** Where the running platform describes itself (ports, pids, ready times) for tools such as `./jobweaver bench`. */
    public static Path stateFile(Path home) {
        return home.resolve("platform.properties");
    }

    /**
     * Writes {@link #stateFile}: one {@code service.<name>.<key>} group per instance plus the infrastructure's
     * addresses. A properties file, so that reading it needs nothing but the JDK.
     */
    private synchronized void writeState() {
        java.util.Properties state = new java.util.Properties();
        state.setProperty("kafka.bootstrap.servers", stack.kafkaBootstrapServers());
        state.setProperty("postgres.port", Integer.toString(stack.postgres().port()));
        state.setProperty("kafka.pid", Long.toString(stack.kafka().pid()));
        state.setProperty(STATE_SECURITY, options.insecure() ? INSECURE : SECURED);
        state.setProperty(STATE_RUNTIME, options.nativeExecutables() ? RUNTIME_NATIVE : RUNTIME_JVM);
        zipkin().ifPresent(z -> state.setProperty("zipkin.url", z.uiUrl()));
        instances.values().forEach(list -> list.forEach(p -> {
            String prefix = "service." + p.spec().name() + ".";
            state.setProperty(prefix + "url", p.url());
            state.setProperty(prefix + "pid", p.process() == null ? "-1" : Long.toString(p.process().pid()));
            Duration ready = readyTimes.get(p.spec().name());
            if (ready != null) {
                state.setProperty(prefix + "ready-ms", Long.toString(ready.toMillis()));
            }
        }));
        try (var writer = Files.newBufferedWriter(stateFile(options.stack().home()))) {
            state.store(writer, "the running JobWeaver platform; rewritten on every (re)start");
        } catch (java.io.IOException e) {
            out.accept("could not write " + stateFile(options.stack().home()) + ": " + e.getMessage());
        }
    }

    /** How many times a service exited without being asked to since the platform started (each is restarted). */
    public int unexpectedExits() {
        return unexpectedExits.get();
    }

    /** Restarts the process after an unexpected exit, printing the restart, until the platform stops. */
    private void supervise(ServiceProcess process) {
        supervisors.add(Thread.ofVirtual().name("supervise-" + process.spec().name()).start(() -> {
            while (!stopping) {
                Process current = process.process();
                int code = current.onExit().join().exitValue();
                if (stopping || retired.contains(process)) {
                    return;
                }
                unexpectedExits.incrementAndGet();
                out.accept(String.format("%s exited with code %d; restarting in %d s", process.spec().name(), code,
                        options.restartDelay().toSeconds()));
                try {
                    Thread.sleep(options.restartDelay());
                    if (stopping) {
                        return;
                    }
                    process.start();
                    Duration took = process.awaitReady(options.readyTimeout());
                    readyTimes.put(process.spec().name(), took);
                    writeState();
                    out.accept(String.format("%s restarted, ready in %.1f s", process.spec().name(),
                            took.toMillis() / 1000.0));
                } catch (InterruptedException e) {
                    return;
                } catch (RuntimeException e) {
                    out.accept(process.spec().name() + " failed to restart: " + e.getMessage());
                }
            }
        }));
    }

    /**
     * Stops the API first, so no new work comes in, then schedulers and workers together (workers finish their
     * in-flight runs within their own grace period), then the stack.
     */
    @Override
    public void close() {
        synchronized (starting) {
            stopping = true; // no process starts after this; the ones started so far are in instances
        }
        ServiceProcess inTraining = training;
        if (inTraining != null) {
            inTraining.stop(Duration.ofSeconds(10));
        }
        supervisors.forEach(Thread::interrupt);
        stopAll(instances(Service.API));
        List<ServiceProcess> rest = new ArrayList<>(instances(Service.SCHEDULER));
        rest.addAll(instances(Service.WORKER));
        rest.addAll(pools);
        stopAll(rest);
        stack.close();
        if (zipkin != null) {
            zipkin.close();
        }
    }

    private static void stopAll(List<ServiceProcess> processes) {
        processes.stream()
                .map(p -> Thread.ofVirtual().start(() -> p.stop(Duration.ofSeconds(40))))
                .toList()
                .forEach(Platform::join);
    }

    /** The end of a service's out file, for a failure message, when the JVM printed anything there; else nothing. */
    static String outsideLogging(Path out) {
        try {
            if (!Files.exists(out) || Files.size(out) == 0) {
                return "";
            }
        } catch (java.io.IOException e) {
            return "";
        }
        return "\nand of what its JVM printed outside logging (" + out.getFileName() + "):\n" + tail(out, 15);
    }

    /** The last {@code lines} lines of a log, for a failure message that shows why without opening a file. */
    static String tail(Path log, int lines) {
        try {
            List<String> all = Files.readAllLines(log);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (java.io.IOException | java.io.UncheckedIOException e) {
            return "(could not read " + log + ": " + e.getMessage() + ")";
        }
    }

    private static void join(Thread thread) {
        if (thread == null) {
            return;
        }
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
