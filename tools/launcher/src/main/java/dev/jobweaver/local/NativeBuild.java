package dev.jobweaver.local;

import dev.jobweaver.local.Platform.Service;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Builds the services' native executables with Maven's {@code native} profile, one after another (a build takes
 * several minutes and 5-8 GB: two at once would not fit beside the platform on a small machine), and runs the native
 * test lane. Used by {@code build --native} and {@code test --native}.
 */
final class NativeBuild {

    /**
     * The builder's settings on a machine of {@value #FEW_CORES} cores or fewer: one analysis thread, and the builder
     * JVM told it has one processor, so that a core stays free for the rest of the machine (a build then takes 5-9
     * minutes per service instead of grabbing both cores for its whole length).
     */
    static final List<String> FEW_CORES_BUILD_ARGS = List.of("--parallelism=1", "-J-XX:ActiveProcessorCount=1");

    /**
     * The builder's quick mode, for executables that are tested, not deployed or measured: the same code, reachability
     * metadata and build-time initialisation, compiled with fewer optimisations, so the compile step takes a fraction
     * of its time.
     */
    static final String QUICK_BUILD_ARG = "-Ob";

    /** At or below this many cores the builder gets {@link #FEW_CORES_BUILD_ARGS}. */
    static final int FEW_CORES = 2;

    /** The modules of the native test lane: each service's integration suite and the end-to-end scenarios. */
    static final String TEST_MODULES = "api-service,scheduler-service,worker-service,src/test-e2e";

    private NativeBuild() {
    }

    /**
     * The builder's home: found ({@link NativeBuilder#find}), else assembled into the cache folder by the
     * {@code assemble.sh} beside the repository when there is one (once per machine: the next search finds it).
     *
     * @throws IllegalStateException naming what to install when there is none
     */
    static Path builder(Path root, Map<String, String> environment, Path userHome, PrintStream out) {
        var found = NativeBuilder.find(environment, userHome);
        Path cache = NativeBuilder.cacheFolder(environment, userHome);
        if (found.isEmpty()) {
            var assembler = NativeBuilder.assembler(root);
            if (assembler.isPresent()) {
                out.println("No native-image builder found; assembling one into " + cache + " with " + assembler.get()
                        + " (once per machine, about a minute)...");
                int exit = assemble(assembler.get(), cache, root);
                if (exit != 0) {
                    throw new IllegalStateException(assembler.get() + " failed (exit " + exit + "); "
                            + NativeBuilder.notFound(cache));
                }
                found = NativeBuilder.find(environment, userHome);
            }
        }
        NativeBuilder.Found builder = found.orElseThrow(() -> new IllegalStateException(NativeBuilder.notFound(cache)));
        out.println("native-image builder: " + builder.home() + " (" + builder.how() + ")");
        return builder.home();
    }

    /**
     * The services whose executable under {@code root} is missing or out of date, or all of them unless
     * {@code onlyOutOfDate}.
     */
    static List<Service> toBuild(Path root, boolean onlyOutOfDate) {
        return java.util.Arrays.stream(Service.values())
                .filter(s -> !onlyOutOfDate || isOutOfDate(root, s))
                .toList();
    }

    /**
     * Whether {@code service}'s executable is missing or older than a file it is built from: its module's sources
     * and pom, {@code common}'s, the worker runtime's and SDK's for the worker, or the root pom (the native profile
     * lives there). A stale executable would pass or fail the native lane for code that is no longer there.
     */
    static boolean isOutOfDate(Path root, Service service) {
        Path executable = service.executable(root);
        if (!Files.isRegularFile(executable)) {
            return true;
        }
        try {
            long built = Files.getLastModifiedTime(executable).toMillis();
            List<String> modules = service == Service.WORKER
                    ? List.of(service.module(), "common", "worker-runtime", "worker-sdk")
                    : List.of(service.module(), "common");
            List<Path> sources = new ArrayList<>(List.of(root.resolve("pom.xml")));
            for (String module : modules) {
                sources.add(root.resolve(module).resolve("src"));
                sources.add(root.resolve(module).resolve("pom.xml"));
            }
            for (Path source : sources) {
                if (Files.exists(source) && newerThan(source, built)) {
                    return true;
                }
            }
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    private static boolean newerThan(Path source, long millis) throws IOException {
        try (var files = Files.walk(source)) {
            return files.filter(Files::isRegularFile).anyMatch(file -> {
                try {
                    return Files.getLastModifiedTime(file).toMillis() > millis;
                } catch (IOException e) {
                    return true;
                }
            });
        }
    }

    /**
     * The Maven command that builds {@code service}'s executable with the builder at {@code graalvmHome}, in the
     * builder's quick mode ({@link #QUICK_BUILD_ARG}) when {@code quick}.
     */
    static List<String> buildCommand(Path root, Service service, Path graalvmHome, int cores, boolean quick,
            List<String> maven) {
        List<String> command = new ArrayList<>(List.of(root.resolve("mvnw").toString(), "-B", "-q", "package",
                "-Pnative", "-pl", service.module(), "-am", "-DskipTests",
                "-Dquarkus.native.graalvm-home=" + graalvmHome));
        if (cores <= FEW_CORES) {
            command.add("-Dquarkus.native.additional-build-args=" + String.join(",", FEW_CORES_BUILD_ARGS));
        }
        if (quick) {
            // appended last, so that it also replaces a level a service sets for itself (the worker's -Os)
            command.add("-Dquarkus.native.additional-build-args-append=" + QUICK_BUILD_ARG);
        }
        command.addAll(maven);
        return command;
    }

    /**
     * The Maven command of the native test lane: the services' {@code @QuarkusIntegrationTest} suites and the
     * end-to-end scenarios tagged for native, against the executables already built (no unit tests: the JVM lane
     * runs those).
     */
    static List<String> testCommand(Path root, Path graalvmHome, List<String> maven) {
        List<String> command = new ArrayList<>(List.of(root.resolve("mvnw").toString(), "-B", "verify", "-Pnative",
                "-pl", TEST_MODULES, "-am", "-Dtest=NONE", "-Dsurefire.failIfNoSpecifiedTests=false",
                "-Dquarkus.native.reuse-existing=true", "-Dquarkus.native.graalvm-home=" + graalvmHome));
        command.addAll(maven);
        return command;
    }

    /**
     * Builds {@code services} one after another (in the builder's quick mode when {@code quick}), printing each one's
     * build time and executable size; stops at the first failure and returns Maven's exit status (0 when all were
     * built).
     */
    static int build(Path root, List<Service> services, Path graalvmHome, boolean quick, List<String> maven,
            PrintStream out) {
        int cores = Runtime.getRuntime().availableProcessors();
        List<String> summary = new ArrayList<>();
        for (Service service : services) {
            out.println("Building " + service.module() + "'s native executable" + (quick ? " in quick mode (-Ob)" : "")
                    + " (several minutes)...");
            long started = System.nanoTime();
            int exit = run(buildCommand(root, service, graalvmHome, cores, quick, maven), root);
            long seconds = Math.round((System.nanoTime() - started) / 1e9);
            if (exit != 0) {
                out.println(service.module() + ": native build failed (Maven exit " + exit + ") after "
                        + minutes(seconds));
                return exit;
            }
            summary.add(String.format("  %-18s built in %s, %s  %s", service.module(), minutes(seconds),
                    size(service.executable(root)), service.executable(root)));
            out.println(summary.getLast());
        }
        if (services.size() > 1) {
            out.println("Native executables:");
            summary.forEach(out::println);
        }
        return 0;
    }

    /** {@code 6m05s}. */
    static String minutes(long seconds) {
        return String.format("%dm%02ds", seconds / 60, seconds % 60);
    }

    /** A file's size in MB with one decimal, or {@code missing}. */
    static String size(Path file) {
        try {
            return String.format("%.1f MB", Files.size(file) / 1e6);
        } catch (IOException e) {
            return "missing";
        }
    }

    /**
     * Runs {@code assembler} into {@code cache}: it replaces that folder, so its parent must exist, and it fetches the
     * builder's jars with the Maven in {@code MVN}, the repository's wrapper unless the environment names one.
     */
    private static int assemble(Path assembler, Path cache, Path root) {
        try {
            Files.createDirectories(cache.getParent());
        } catch (IOException e) {
            throw new IllegalStateException("cannot create " + cache.getParent() + ": " + e.getMessage(), e);
        }
        ProcessBuilder builder = new ProcessBuilder("bash", assembler.toString(), cache.toString());
        builder.environment().putIfAbsent("MVN", root.resolve("mvnw").toString());
        return run(builder, root);
    }

    /** Runs {@code command} in {@code root} with this process's console, and returns its exit status. */
    static int run(List<String> command, Path root) {
        return run(new ProcessBuilder(command), root);
    }

    private static int run(ProcessBuilder builder, Path root) {
        List<String> command = builder.command();
        try {
            return builder.directory(root.toFile()).inheritIO().start().waitFor();
        } catch (IOException e) {
            throw new IllegalStateException("could not run " + command.getFirst() + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + command.getFirst(), e);
        }
    }
}
