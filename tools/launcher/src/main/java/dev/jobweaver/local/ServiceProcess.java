package dev.jobweaver.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * One packaged Quarkus service ({@code target/quarkus-app/quarkus-run.jar}, or its native executable) run as its own
 * process, as in production: configuration is passed as system properties, secrets as environment variables (which,
 * unlike a command line, other users cannot read in {@code ps}), output goes to files.
 *
 * <p>Two files per instance: {@code <name>.log}, written by the service's own logging, which rotates it at
 * {@link #LOG_ROTATE_SIZE} while it runs ({@link #rotatingLog}); and {@code <name>.out}, the JVM's standard output and
 * error, which holds only what is printed outside logging (a JVM warning, an error before logging starts, a crash).
 * In a cluster the services log to the console instead; only this launcher turns the file on.
 *
 * <p>Not thread-safe by itself: {@link Platform} serialises start, stop and restart per service.
 */
public final class ServiceProcess {

    /**
     * What to run.
     *
     * @param name instance name, e.g. {@code worker-service-2}; names the log file
     * @param artefact the service's {@code quarkus-run.jar}, or its native executable
     * @param port its HTTP port
     * @param config Quarkus configuration, passed as {@code -Dkey=value}
     * @param jvmOptions heap and GC options (of the JVM, or those a native executable accepts)
     * @param environment environment variables added to the launcher's own, for secrets
     */
    public record Spec(String name, Path artefact, int port, Map<String, String> config, List<String> jvmOptions,
                       Map<String, String> environment) {

        /** With no environment variables of its own. */
        public Spec(String name, Path artefact, int port, Map<String, String> config, List<String> jvmOptions) {
            this(name, artefact, port, config, jvmOptions, Map.of());
        }
    }

    private final Spec spec;
    private final Path logFile;
    private final Path outFile;
    private Process process;
    private long startedAtNanos;
    /** Stops this process if the launcher dies without stopping it; null when nobody watches. */
    private Reaper reaper;

    public ServiceProcess(Spec spec, Path logDirectory) {
        this.spec = spec;
        this.logFile = logDirectory.resolve(spec.name() + ".log");
        this.outFile = logDirectory.resolve(spec.name() + ".out");
    }

    /** Registers this process with {@code reaper} from its next start on; returns this. */
    public ServiceProcess reapedBy(Reaper reaper) {
        this.reaper = reaper;
        return this;
    }

    /** The spec this process runs. */
    public Spec spec() {
        return spec;
    }

    /** {@code http://localhost:port}. */
    public String url() {
        return "http://localhost:" + spec.port();
    }

    /** Its log, rotated to {@code <log>.1} past {@link #LOG_ROTATE_SIZE}. */
    public Path logFile() {
        return logFile;
    }

    /** Its JVM's standard output and error: what is printed outside logging. */
    public Path outFile() {
        return outFile;
    }

    /** The running process, or null. */
    public Process process() {
        return process;
    }

    /** Whether the process is alive. */
    public boolean isAlive() {
        return process != null && process.isAlive();
    }

    /**
     * Starts the process, its logging appending to its log file (rotated as it grows) and its standard output to its
     * out file; an out file over {@link #OUT_ROTATE_BYTES} is first moved aside ({@link #rotateIfOver}).
     */
    public void start() {
        requireBuilt(spec.name(), spec.artefact());
        List<String> command = commandLine(spec.jvmOptions(), withRotatingLog(logFile, spec.config()),
                spec.artefact());
        try {
            Files.createDirectories(logFile.getParent());
            rotateIfOver(outFile, OUT_ROTATE_BYTES);
            startedAtNanos = System.nanoTime();
            // A session of its own: a Ctrl-C or a SIGTERM to the launcher's process group reaches the launcher alone,
            // which stops the services before Kafka (Reaper says why).
            ProcessBuilder builder = new ProcessBuilder(Reaper.detached(command))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(outFile.toFile()));
            tuneMalloc(builder.environment());
            builder.environment().putAll(spec.environment());
            process = builder.start();
            if (reaper != null) {
                reaper.register(Reaper.SERVICES, spec.name(), process.pid());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + spec.name(), e);
        }
    }

    /**
     * Size at which a service's log moves to {@code <log>.1} (replacing an older one) while it runs: 64 MiB. The
     * worker logs every LOG step at INFO (SPEC.md), about 250 bytes a job, so a day of benchmarks had appended
     * gigabytes to one file; now a service's logs take at most twice this.
     */
    static final String LOG_ROTATE_SIZE = "64M";

    /** Size above which an out file is moved aside when its service starts (it holds little: nothing logs there). */
    static final long OUT_ROTATE_BYTES = 64L * 1024 * 1024;

    /**
     * The Quarkus configuration that makes a service log to {@code log} instead of the console, in the console's own
     * format, rotated at {@link #LOG_ROTATE_SIZE} with one older file kept. Not rotated at boot: a restarted service
     * (the end-to-end tests kill and restart them) appends to the log of its earlier start.
     */
    static Map<String, String> rotatingLog(Path log) {
        return Map.of(
                "quarkus.log.console.enabled", "false",
                "quarkus.log.file.enabled", "true",
                "quarkus.log.file.path", log.toString(),
                "quarkus.log.file.format", "${quarkus.log.console.format}",
                "quarkus.log.file.rotation.max-file-size", LOG_ROTATE_SIZE,
                "quarkus.log.file.rotation.max-backup-index", "1",
                "quarkus.log.file.rotation.rotate-on-boot", "false");
    }

    /** {@code config} with {@link #rotatingLog} added; where both set a key, {@code config}'s value wins. */
    static Map<String, String> withRotatingLog(Path log, Map<String, String> config) {
        Map<String, String> all = new HashMap<>(rotatingLog(log));
        all.putAll(config);
        return all;
    }

    /**
     * Moves {@code log} to {@code <log>.1}, replacing an older one, when it is larger than {@code maxBytes}; a smaller
     * or missing file is left alone, so a restarted service appends to the file of its earlier start.
     */
    static void rotateIfOver(Path log, long maxBytes) throws IOException {
        if (Files.exists(log) && Files.size(log) > maxBytes) {
            Files.move(log, log.resolveSibling(log.getFileName() + ".1"), StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** Fails with a message naming {@code name} when its packaged {@code artefact} does not exist. */
    static void requireBuilt(String name, Path artefact) {
        if (!Files.exists(artefact)) {
            throw new IllegalStateException(name + " is not built: " + artefact + " is missing");
        }
    }

    /** Whether {@code artefact} is a native executable rather than a jar the JDK runs. */
    static boolean isNative(Path artefact) {
        return !artefact.getFileName().toString().endsWith(".jar");
    }

    /**
     * How a packaged service runs: this JDK, {@code jvmOptions}, {@code config} as sorted system properties, the jar;
     * or, for a native executable, the executable itself followed by the options and properties, which a native
     * Quarkus application reads from its arguments as the JVM reads them from its own.
     */
    static List<String> commandLine(List<String> jvmOptions, Map<String, String> config, Path artefact) {
        List<String> command = new ArrayList<>();
        command.add(isNative(artefact) ? artefact.toString() : KafkaBroker.javaExecutable());
        command.addAll(jvmOptions);
        new TreeMap<>(config).forEach((k, v) -> command.add("-D" + k + "=" + v));
        if (!isNative(artefact)) {
            command.add("-jar");
            command.add(artefact.toString());
        }
        return command;
    }

    /**
     * glibc gives every thread that mallocs concurrently an arena of its own (up to 8 per core), and each keeps the
     * memory it once held; two arenas are enough for a JVM, whose own heap is not malloc'd.
     *
     * <p>Blocks of 32 KiB or more are mapped on their own ({@code MALLOC_MMAP_THRESHOLD_}) and unmapped when freed,
     * instead of coming from an arena that keeps what it once held: with jobs of 60 KB arriving 256 at a time, the
     * API's arena grew from 7 to 22 MB and the service to 226 MB; with the threshold it peaked at 196 MB under the same
     * load (measured 2026-11-25). Without it glibc raises its threshold as large blocks are freed,
     * up to 32 MB, so those blocks end up in the arena. No-op jobs rarely allocate such blocks. An operator's own
     * values win.
     */
    static void tuneMalloc(Map<String, String> environment) {
        environment.putIfAbsent("MALLOC_ARENA_MAX", "2");
        environment.putIfAbsent("MALLOC_MMAP_THRESHOLD_", "32768");
    }

    /**
     * Waits until {@code /q/health/ready} answers 200 and returns how long the service took from process start.
     *
     * @throws IllegalStateException if the process exits or the timeout passes first
     */
    public Duration awaitReady(Duration timeout) {
        if (process == null) {
            throw new IllegalStateException(spec.name() + " was never started");
        }
        Processes.awaitHttpOk(process, URI.create(url() + "/q/health/ready"), timeout, spec.name(),
                logFile + " and " + outFile.getFileName());
        return Duration.ofNanos(System.nanoTime() - startedAtNanos);
    }

    /** SIGTERM, so the service shuts down gracefully; SIGKILL if it is still alive after {@code grace}. */
    public void stop(Duration grace) {
        if (process == null) {
            return;
        }
        if (reaper != null) {
            reaper.unregister(Reaper.SERVICES, spec.name());
        }
        Processes.stop(process, grace);
    }

    /** SIGKILL: no shutdown hook runs, as when a node dies. */
    public void kill() {
        if (process == null) {
            return;
        }
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
