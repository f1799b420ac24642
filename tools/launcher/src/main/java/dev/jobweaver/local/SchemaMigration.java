package dev.jobweaver.local;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * Brings one service's database to the schema of its build: a short start of the packaged service itself, with a
 * JDBC URL and Quarkus' {@code quarkus.init-and-exit}, so that Flyway migrates (and validates) as the service
 * initialises, and the process exits before it serves or consumes anything.
 *
 * <h2>Why a separate start</h2>
 * A service that migrates as it starts keeps what migrating loaded for its whole life: the JDBC driver, Agroal and
 * Flyway, about 600 classes and 6-8 MB of class metadata per service (measured 2026-11). The running
 * services get no JDBC URL; Quarkus then leaves the JDBC datasource and Flyway inactive, and each service checks at
 * start that its schema is current ({@code dev.jobweaver.common.schema.SchemaGuard}). The same artefact migrates, so
 * there is one definition of the schema and one Flyway configuration: Kubernetes can run it as an init container.
 *
 * <h2>Cost</h2>
 * A JVM's start and Flyway's work, 2-4 s per service; the launcher runs the three at once. An init-and-exit start then
 * waits 5 s before it exits (Quarkus 3.34 asks for its own shutdown from a thread that waits for the start, and the
 * start waits 5 s for that thread), so once Flyway has said the schema is current ({@link #FLYWAY_DONE}) the launcher
 * kills the process instead of waiting: Flyway has committed by then, and nothing else runs in it. A SIGTERM would not
 * do: the JVM's shutdown hook waits for the same start. Should Flyway ever word its verdict otherwise, the launcher
 * waits for the exit, 5 s later. Flyway takes a PostgreSQL advisory lock, so concurrent migrations of one database
 * (two launchers) are safe.
 */
final class SchemaMigration {

    /** The log level of Quarkus' shutdown recorder, whose only line in an init-and-exit start is a false ERROR. */
    static final String SHUTDOWN_RECORDER_LEVEL = "quarkus.log.category.\"io.quarkus.runtime.shutdown.ShutdownRecorder\".level";

    /** Far above the 7 s a migration takes, for a slow first start (cold page cache). */
    static final Duration TIMEOUT = Duration.ofSeconds(120);

    /**
     * Flyway's last line of a migration that went well, whether it applied migrations ("Successfully applied 26
     * migrations to schema ...") or found none to apply ("Schema "public" is up to date. No migration necessary.").
     */
    static final Pattern FLYWAY_DONE = Pattern.compile(
            "Successfully applied \\d+ migrations? to schema|Schema .* is up to date\\. No migration necessary");

    /** How often the log is read for {@link #FLYWAY_DONE} while the migration runs. */
    private static final long LOG_POLL_MILLIS = 50;

    private final String name;
    private final Path jar;
    private final Map<String, String> config;
    private final Map<String, String> environment;
    private final Path logFile;

    /**
     * @param name    the service, for messages and the log file's name
     * @param jar     the service's {@code quarkus-run.jar}, or its native executable
     * @param config  the service's configuration including the JDBC URL ({@link LocalStack#migrationConfig})
     * @param environment the service's own environment variables (its secrets: the API checks its configuration
     *                    when it initialises, so a migration start needs them too)
     * @param logs    the folder of the platform's logs
     */
    SchemaMigration(String name, Path jar, Map<String, String> config, Map<String, String> environment, Path logs) {
        this.name = name;
        this.jar = jar;
        this.config = config;
        this.environment = environment;
        this.logFile = logs.resolve(name + "-migration.log");
    }

    /**
     * The command line: a small JVM (it lives seconds), or the native executable with a small heap, the service's
     * configuration, then init-and-exit. A native executable migrates the same way: the JDBC driver, Agroal and Flyway
     * with its migration scripts are in every executable, inactive until a JDBC URL is given.
     */
    List<String> command() {
        Map<String, String> all = new HashMap<>(config);
        all.put("quarkus.flyway.migrate-at-start", "true");
        all.put("quarkus.init-and-exit", "true");
        // It exits before serving, but must not collide with a service already listening on the usual port.
        all.put("quarkus.http.port", "0");
        // No spans to export from a process that only migrates.
        all.put("quarkus.otel.sdk.disabled", "true");
        // Quarkus 3.34 runs SmallRye Health's shutdown listener after an init-and-exit start has already stopped the
        // CDI container, and logs "Graceful shutdown failed: No CDI container is available" at ERROR (scheduler and
        // worker; nothing was running to shut down). Silenced here only, so a healthy start logs no ERROR.
        all.put(SHUTDOWN_RECORDER_LEVEL, "OFF");
        List<String> options = ServiceProcess.isNative(jar) ? List.of("-Xmx128m")
                : List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx128m");
        return ServiceProcess.commandLine(options, all, jar);
    }

    /**
     * Runs the migration and waits until Flyway says the schema is current or the process ends; throws with the end of
     * its log if it fails or hangs.
     */
    void run() {
        run(command());
    }

    /** {@link #run()} with {@code command} as the migration's process. */
    void run(List<String> command) {
        ServiceProcess.requireBuilt(name, jar);
        try {
            Files.createDirectories(logFile.getParent());
            long logStart = Files.exists(logFile) ? Files.size(logFile) : 0;
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
            builder.environment().putAll(environment);
            Process process = builder.start();
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (process.isAlive()) {
                if (flywaySaidDone(logStart)) {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                    return;
                }
                if (System.nanoTime() > deadline) {
                    process.destroyForcibly();
                    throw new IllegalStateException(name + ": schema migration did not finish within " + TIMEOUT
                            + "; the end of " + logFile + ":\n" + Platform.tail(logFile, 15));
                }
                process.waitFor(LOG_POLL_MILLIS, TimeUnit.MILLISECONDS);
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException(name + ": schema migration failed (exit " + process.exitValue()
                        + "); the end of " + logFile + ":\n" + Platform.tail(logFile, 15));
            }
        } catch (IOException e) {
            throw new IllegalStateException(name + ": could not start its schema migration: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(name + ": interrupted while migrating its schema", e);
        }
    }

    /** Whether what this run wrote to the log, from {@code logStart} on, holds {@link #FLYWAY_DONE}. */
    private boolean flywaySaidDone(long logStart) throws IOException {
        if (!Files.exists(logFile) || Files.size(logFile) <= logStart) {
            return false;
        }
        try (InputStream log = Files.newInputStream(logFile)) {
            log.skipNBytes(logStart);
            return FLYWAY_DONE.matcher(new String(log.readAllBytes(), StandardCharsets.UTF_8)).find();
        }
    }

    /** Where the migration's output goes. */
    Path logFile() {
        return logFile;
    }
}
