package dev.jobweaver.bench;

import dev.jobweaver.local.Platform;
import dev.jobweaver.local.PlatformSecrets;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.TreeSet;

/**
 * The running platform as `./jobweaver up` describes it in {@code <home>/platform.properties}.
 *
 * @param apiUrl the first API instance's base URL
 * @param postgresPort where the platform's PostgreSQL listens
 * @param kafkaPid the broker's process id, or -1
 * @param postgresPid the PostgreSQL server's (postmaster's) process id, or -1
 * @param instances every service instance, sorted by name
 * @param secured whether the API requires credentials (every platform `up` starts, unless {@code --insecure})
 * @param runtime what runs the services: {@link Platform#RUNTIME_JVM} or {@link Platform#RUNTIME_NATIVE}
 *                (`up --native`), so that reports of both stand side by side
 */
public record PlatformState(String apiUrl, int postgresPort, long kafkaPid, long postgresPid,
                            List<Instance> instances, boolean secured, String runtime) {

    /** Services on the JVM. */
    public PlatformState(String apiUrl, int postgresPort, long kafkaPid, long postgresPid, List<Instance> instances,
                         boolean secured) {
        this(apiUrl, postgresPort, kafkaPid, postgresPid, instances, secured, Platform.RUNTIME_JVM);
    }

    /** A platform whose API requires credentials, its services on the JVM. */
    public PlatformState(String apiUrl, int postgresPort, long kafkaPid, long postgresPid, List<Instance> instances) {
        this(apiUrl, postgresPort, kafkaPid, postgresPid, instances, true);
    }

    /** How a report names the platform it measured, e.g. {@code services on the JVM, 1 api-service, ...}. */
    public String describe() {
        return "services " + (Platform.RUNTIME_NATIVE.equals(runtime) ? "as native executables" : "on the JVM")
                + " (" + String.join(", ", instances.stream().map(Instance::name).toList()) + ")";
    }

    /** The process name of the API's first instance. */
    public static final String API = "api-service";

    /**
     * One service instance.
     *
     * @param name e.g. {@code worker-service-2}
     * @param url its base URL
     * @param pid its process id, or -1
     * @param readyMs how long it took from process start to ready, or -1 when unknown
     */
    public record Instance(String name, String url, long pid, long readyMs) {
    }

    /** Reads {@code <home>/platform.properties}, failing with a message a user can act on. */
    public static PlatformState load(Path home) {
        Path file = home.resolve("platform.properties");
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException("the platform is not up: " + file + " does not exist. Start it with "
                    + "`./jobweaver up` (and pass the same --home to bench if you gave one to up)");
        }
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new UncheckedIOException("could not read " + file, e);
        }
        return parse(properties, file.toString(), postmasterPid(home.resolve("postgres/data/postmaster.pid")));
    }

    /** The first line of PostgreSQL's {@code postmaster.pid} (where the local stack keeps its data), or -1. */
    static long postmasterPid(Path file) {
        try {
            return Long.parseLong(Files.readAllLines(file).getFirst().trim());
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** Builds the state from the properties {@code Platform} writes; {@code source} names them in errors. */
    public static PlatformState parse(Properties properties, String source, long postgresPid) {
        TreeSet<String> names = new TreeSet<>();
        for (String key : properties.stringPropertyNames()) {
            if (key.startsWith("service.") && key.endsWith(".url")) {
                names.add(key.substring("service.".length(), key.length() - ".url".length()));
            }
        }
        List<Instance> instances = new ArrayList<>();
        for (String name : names) {
            String prefix = "service." + name + ".";
            instances.add(new Instance(name, properties.getProperty(prefix + "url"),
                    number(properties, prefix + "pid", -1), number(properties, prefix + "ready-ms", -1)));
        }
        instances.sort(Comparator.comparing(Instance::name));
        Instance api = instances.stream().filter(i -> i.name().equals(API)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no api-service in " + source
                        + ": the platform runs without its API (is api-service built?)"));
        long port = number(properties, "postgres.port", -1);
        if (port <= 0) {
            throw new IllegalStateException("no postgres.port in " + source);
        }
        // a platform whose launcher wrote no such line ran without authentication
        boolean secured = Platform.SECURED.equals(properties.getProperty(Platform.STATE_SECURITY));
        // a launcher that wrote no runtime ran the services on the JVM
        String runtime = properties.getProperty(Platform.STATE_RUNTIME, Platform.RUNTIME_JVM);
        return new PlatformState(api.url(), (int) port, number(properties, "kafka.pid", -1), postgresPid,
                List.copyOf(instances), secured, runtime);
    }

    /**
     * The key to send to this platform's API: the admin key `up` keeps in {@code home}, or null when the API runs
     * open.
     *
     * @throws IllegalStateException when the API is secured but {@code home} holds no key
     */
    public String apiKey(Path home) {
        if (!secured) {
            return null;
        }
        return PlatformSecrets.load(home).map(PlatformSecrets::adminKey).orElseThrow(() -> new IllegalStateException(
                "the platform's API requires credentials, but " + PlatformSecrets.file(home) + " does not exist: "
                        + "pass bench the --home that up was given"));
    }

    /** The processes to sample: every service instance, Kafka, and PostgreSQL with its per-connection processes. */
    public List<SampledProcess> sampledProcesses() {
        List<SampledProcess> all = new ArrayList<>();
        instances.forEach(i -> all.add(new SampledProcess(i.name(), i.pid(), false)));
        if (kafkaPid > 0) {
            all.add(new SampledProcess("kafka", kafkaPid, false));
        }
        if (postgresPid > 0) {
            all.add(new SampledProcess("postgres", postgresPid, true));
        }
        return all;
    }

    private static long number(Properties properties, String key, long fallback) {
        String raw = properties.getProperty(key);
        if (raw == null || raw.isBlank()) {
            return fallback;
        }
        try {
            return Long.parseLong(raw.trim());
        } catch (NumberFormatException e) {
            return fallback;
        }
    }
}
