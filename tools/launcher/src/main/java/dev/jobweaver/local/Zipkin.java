package dev.jobweaver.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A Zipkin server (UI and API) with in-memory storage, run from its executable jar as its own process: the trace
 * viewer of a one-machine platform, where no OpenTelemetry collector or Jaeger can be installed.
 *
 * <p>The services export to it when {@code jobweaver.tracing.zipkin.enabled=true} (see
 * {@code dev.jobweaver.common.tracing.ZipkinExporterProducer}). The build copies the jar to
 * {@code tools/launcher/target/zipkin/zipkin-server-exec.jar}.
 */
public final class Zipkin implements AutoCloseable {

    /** How many spans the viewer keeps: the traces of the last few thousand jobs. */
    static final int MAX_SPANS = 100_000;

    private final Path jar;
    private final int port;
    private final Path logFile;
    private Process process;
    /** Stops the viewer if the launcher dies without stopping it; null when nobody watches. */
    private Reaper reaper;

    public Zipkin(Path jar, int port, Path logFile) {
        this.jar = jar;
        this.port = port;
        this.logFile = logFile;
    }

    /** The jar the build puts under the repository at {@code root}. */
    public static Path jarUnder(Path root) {
        return root.resolve("tools/launcher/target/zipkin/zipkin-server-exec.jar");
    }

    /** The UI, e.g. {@code http://localhost:9411/zipkin/}. */
    public String uiUrl() {
        return "http://localhost:" + port + "/zipkin/";
    }

    /** Where services post spans (Zipkin v2 JSON). */
    public String spansEndpoint() {
        return "http://127.0.0.1:" + port + "/api/v2/spans";
    }

    /** The API root, e.g. for {@code /api/v2/trace/{traceId}}. */
    public String apiUrl() {
        return "http://127.0.0.1:" + port + "/api/v2";
    }

    /** The service configuration that makes a service export its spans here. */
    public Map<String, String> serviceConfig() {
        return Map.of("jobweaver.tracing.zipkin.enabled", "true",
                "jobweaver.tracing.zipkin.endpoint", spansEndpoint());
    }

    /** Registers the viewer with {@code reaper} from its next start on; returns this. */
    public Zipkin reapedBy(Reaper reaper) {
        this.reaper = reaper;
        return this;
    }

    /** Starts the server and waits until its health endpoint answers. */
    public void start() {
        if (!Files.exists(jar)) {
            throw new IllegalStateException("the Zipkin server is not built: " + jar + " is missing (./jobweaver build)");
        }
        try {
            Files.createDirectories(logFile.getParent());
            ProcessBuilder builder = new ProcessBuilder(Reaper.detached(List.of(KafkaBroker.javaExecutable(),
                    "-Xms64m", "-Xmx512m",
                    // Armeria and Netty inside Zipkin use Unsafe and native access; say so, rather than warn.
                    "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow", "-jar",
                    jar.toString())))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
            builder.environment().put("QUERY_PORT", Integer.toString(port));
            builder.environment().put("STORAGE_TYPE", "mem");
            // In-memory storage keeps 500,000 spans by default, far more than 512 MB of heap holds (a job makes about
            // 30): keep the newest MAX_SPANS and drop the oldest traces, so a long run never kills the viewer.
            builder.environment().put("MEM_MAX_SPANS", Integer.toString(MAX_SPANS));
            process = builder.start();
            if (reaper != null) {
                reaper.register(Reaper.BROKERS, "zipkin", process.pid());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not start Zipkin", e);
        }
        Processes.awaitHttpOk(process, URI.create("http://127.0.0.1:" + port + "/health"), Duration.ofSeconds(60),
                "Zipkin", logFile.toString());
    }

    @Override
    public void close() {
        if (process == null) {
            return;
        }
        if (reaper != null) {
            reaper.unregister(Reaper.BROKERS, "zipkin");
        }
        Processes.stop(process, Duration.ofSeconds(10));
    }
}
