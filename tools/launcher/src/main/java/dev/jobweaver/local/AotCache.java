package dev.jobweaver.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * A JDK AOT cache (JEP 483/514/515, {@code -XX:AOTCache}) for one packaged service: the classes it loads and links
 * at start-up, and (for a JVM whose JIT reads them) their method profiles, recorded by one training start and mapped
 * by every later start.
 *
 * <p>Measured on the 2-core machine: the API needs about 2.6 CPU seconds
 * to become ready with the cache instead of about 7. The cache is only valid for the exact classpath (each jar's
 * path, size and time), the same JVM and compatible JVM options, so it lives beside the platform's data
 * ({@code <home>/aot/<service>.aot}), never in a build folder, together with a fingerprint of everything it depends
 * on. A missing or stale cache costs only speed: the service then starts without it, and the launcher trains a new
 * one. (Were a stale file passed anyway, the JVM itself would refuse it with a warning and start without it.)
 *
 * <p>It helps most with the {@code aot-jar} packaging (the root pom sets {@code quarkus.package.jar.type=aot-jar}),
 * where every class is on the JVM's class path; with the default fast-jar most classes come from Quarkus' own class
 * loader and cannot be cached.
 */
public final class AotCache {

    private static final String SUFFIX = ".aot";

    private final Path file;
    private final Path keyFile;
    private final String fingerprint;
    private final boolean methodProfiles;

    /**
     * @param directory where the caches of this platform live
     * @param name the service, names the file
     * @param fingerprint what the cache depends on, from {@link #fingerprint}
     * @param methodProfiles whether training records method profiles, from {@link #profilesAreRead}
     */
    public AotCache(Path directory, String name, String fingerprint, boolean methodProfiles) {
        this.file = directory.resolve(name + SUFFIX);
        this.keyFile = directory.resolve(name + SUFFIX + ".key");
        this.fingerprint = fingerprint;
        this.methodProfiles = methodProfiles;
    }

    /** The cache file. */
    public Path file() {
        return file;
    }

    /** Whether a cache exists and was trained for exactly this application, JVM and options. */
    public boolean isUsable() {
        try {
            return Files.isRegularFile(file) && Files.size(file) > 0 && Files.isRegularFile(keyFile)
                    && Files.readString(keyFile, StandardCharsets.UTF_8).equals(fingerprint);
        } catch (IOException e) {
            return false;
        }
    }

    /** The JVM options that map the cache, or none when it is not usable. */
    public List<String> runOptions() {
        return isUsable() ? List.of("-XX:AOTCache=" + file) : List.of();
    }

    /** Where a training run writes its cache; it becomes {@link #file()} only through {@link #commit()}. */
    public Path trainingOutput() {
        return file.resolveSibling(file.getFileName() + ".training");
    }

    /**
     * The JVM options of a training run: record what the start loads and write the cache when the JVM exits; without
     * method profiles unless the JIT reads them.
     */
    public List<String> trainingOptions() {
        return methodProfiles ? List.of("-XX:AOTCacheOutput=" + trainingOutput())
                : List.of("-XX:AOTCacheOutput=" + trainingOutput(), "-XX:+UnlockDiagnosticVMOptions",
                        "-XX:-AOTRecordTraining");
    }

    /**
     * Whether a JVM with these options reads the method profiles a cache can hold (JEP 515). Only C2 does: a JVM that
     * stops at C1 ({@code -XX:TieredStopAtLevel} 1 to 3, the services' default) never does, and a cache without them
     * kept 6-7 MiB less resident in the API and 3 MiB less in the scheduler and worker, with the same start-up
     * (measured 2026-11-29 on the 2-core machine). The last option of its kind wins, as in
     * the JVM.
     */
    public static boolean profilesAreRead(List<String> jvmOptions) {
        boolean tiered = true;
        String stopLevel = "4";
        for (String option : jvmOptions) {
            if (option.startsWith("-XX:TieredStopAtLevel=")) {
                stopLevel = option.substring("-XX:TieredStopAtLevel=".length());
            } else if (option.equals("-XX:-TieredCompilation") || option.equals("-XX:+TieredCompilation")) {
                tiered = option.startsWith("-XX:+");
            }
        }
        return !tiered || stopLevel.equals("4"); // without tiers, the interpreter profiles for C2 alone
    }

    /**
     * Makes the training run's output the cache, with its fingerprint.
     *
     * @return whether there was an output to keep (a training run that was killed writes none)
     */
    public boolean commit() {
        Path output = trainingOutput();
        try {
            if (!Files.isRegularFile(output) || Files.size(output) == 0) {
                Files.deleteIfExists(output);
                return false;
            }
            Files.createDirectories(file.getParent());
            Files.deleteIfExists(keyFile); // never a new key beside an old file, nor the reverse
            Files.move(output, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            Files.writeString(keyFile, fingerprint, StandardCharsets.UTF_8);
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException("could not keep the AOT cache " + file, e);
        }
    }

    /**
     * A digest of what a cache depends on: every file of the packaged application (relative path, size, modification
     * time; AOT files left out), the JVM that runs it and the options it runs with, and whether it holds method
     * profiles (so that a change of JIT level trains again).
     *
     * @param application the service's {@code quarkus-app} folder
     * @param jvmOptions the options every start of the service gets; only those that {@link #shapesTheCache} count
     * @param jvm the JVM, e.g. its {@code java.home} and {@code java.vm.version}
     */
    public static String fingerprint(Path application, List<String> jvmOptions, String jvm) {
        MessageDigest digest = sha256();
        update(digest, "jvm " + jvm);
        update(digest, "method profiles " + profilesAreRead(jvmOptions));
        jvmOptions.stream().filter(AotCache::shapesTheCache).forEach(option -> update(digest, "option " + option));
        try (Stream<Path> files = Files.walk(application)) {
            for (Path path : files.filter(Files::isRegularFile).sorted().toList()) {
                String relative = application.relativize(path).toString().replace('\\', '/');
                if (relative.endsWith(SUFFIX) || relative.contains(SUFFIX + ".")) {
                    continue;
                }
                update(digest, "file " + relative + " " + Files.size(path) + " "
                        + Files.getLastModifiedTime(path).toMillis());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not read " + application, e);
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    /**
     * Whether a JVM option changes what a cache holds or whether the JVM accepts it: the garbage collector and other
     * {@code -XX:±Use...} switches (compressed pointers), modules, agents and {@code -Djava.*} properties. Heap size,
     * JIT level, logging or NMT do not: changing them keeps the cache. (The JVM checks a cache against its own
     * options as well, and starts without it, with a warning, when they do not match.)
     */
    static boolean shapesTheCache(String option) {
        return option.startsWith("-XX:+Use") || option.startsWith("-XX:-Use") || option.startsWith("--add-")
                || option.startsWith("--enable-") || option.startsWith("--module") || option.startsWith("--limit-modules")
                || option.startsWith("-javaagent") || option.startsWith("-agent") || option.startsWith("-Djava.");
    }

    /** This JVM, as {@link #fingerprint} wants it: the services run on the same java as the launcher. */
    public static String currentJvm() {
        return System.getProperty("java.home") + " " + System.getProperty("java.vm.version");
    }

    private static void update(MessageDigest digest, String line) {
        digest.update((line + "\n").getBytes(StandardCharsets.UTF_8));
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The cache of a service, if any, for messages. */
    @Override
    public String toString() {
        return file + (isUsable() ? "" : " (missing or stale)");
    }

    /** The folder of a platform's caches. */
    public static Path directoryUnder(Path home) {
        return home.resolve("aot");
    }

    /** Whether {@code options} already name a cache, e.g. through JOBWEAVER_JAVA_OPTS: then the launcher stays out. */
    public static boolean namedIn(List<String> options) {
        return options.stream().anyMatch(o -> o.startsWith("-XX:AOTCache") || o.startsWith("-XX:AOTMode")
                || o.startsWith("-XX:SharedArchiveFile") || o.startsWith("-XX:ArchiveClassesAtExit"));
    }

    /** Quietly removes a training output left behind by an interrupted run. */
    void discardTrainingOutput() {
        try {
            Files.deleteIfExists(trainingOutput());
            Files.deleteIfExists(trainingOutput().resolveSibling(trainingOutput().getFileName() + ".config"));
        } catch (IOException e) {
            // nothing to keep; a later training overwrites it
        }
    }
}
