package dev.jobweaver.local;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Where the GraalVM (or Mandrel) home is that builds the services' native executables, found the standard way:
 * {@code GRAALVM_HOME}, else {@code native-image} on the {@code PATH}, else the per-machine cache folder
 * {@code ${XDG_CACHE_HOME:-$HOME/.cache}/jobweaver/native-image}, where {@code shared/native/assemble.sh DIR} (beside
 * the repository, on machines that cannot download a GraalVM) puts one.
 *
 * <p>A home is a folder with {@code bin/native-image} and a JDK's {@code release} file; Quarkus is given it as
 * {@code quarkus.native.graalvm-home}.
 */
final class NativeBuilder {

    /** Where {@link #find} found a builder: its home, and how it was found (for the console). */
    record Found(Path home, String how) {
    }

    private NativeBuilder() {
    }

    /**
     * The builder {@code environment} names or the machine has, or empty.
     *
     * @param environment the process environment ({@code GRAALVM_HOME}, {@code PATH}, {@code XDG_CACHE_HOME})
     * @param userHome the user's home folder, for the cache folder when {@code XDG_CACHE_HOME} is not set
     */
    static Optional<Found> find(Map<String, String> environment, Path userHome) {
        String graalvmHome = environment.getOrDefault("GRAALVM_HOME", "");
        if (!graalvmHome.isBlank() && isHome(Path.of(graalvmHome))) {
            return Optional.of(new Found(Path.of(graalvmHome).toAbsolutePath(), "GRAALVM_HOME"));
        }
        for (String directory : environment.getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (directory.isBlank()) {
                continue;
            }
            Path onPath = Path.of(directory, "native-image");
            if (Files.isExecutable(onPath)) {
                Optional<Path> home = homeOf(onPath);
                if (home.isPresent()) {
                    return Optional.of(new Found(home.get(), "native-image on the PATH"));
                }
            }
        }
        Path cache = cacheFolder(environment, userHome);
        return isHome(cache) ? Optional.of(new Found(cache, "the cache folder")) : Optional.empty();
    }

    /**
     * {@code ${XDG_CACHE_HOME:-$HOME/.cache}/jobweaver/native-image}, as a shell reads it: {@code HOME} from the
     * environment, {@code userHome} (the JDK's {@code user.home}, from the password database) only without one.
     */
    static Path cacheFolder(Map<String, String> environment, Path userHome) {
        String xdg = environment.getOrDefault("XDG_CACHE_HOME", "");
        String home = environment.getOrDefault("HOME", "");
        Path cache = !xdg.isBlank() ? Path.of(xdg) : (home.isBlank() ? userHome : Path.of(home)).resolve(".cache");
        return cache.resolve("jobweaver").resolve("native-image").toAbsolutePath();
    }

    /**
     * The script that assembles a builder on a machine without a GraalVM ({@code shared/native/assemble.sh} beside the
     * repository {@code root}), when there is one.
     */
    static Optional<Path> assembler(Path root) {
        Path parent = root.toAbsolutePath().getParent();
        if (parent == null) {
            return Optional.empty();
        }
        Path script = parent.resolve("shared").resolve("native").resolve("assemble.sh");
        return Files.isRegularFile(script) ? Optional.of(script) : Optional.empty();
    }

    /** What to do when no builder is found. */
    static String notFound(Path cacheFolder) {
        return "no native-image builder found. Install GraalVM or Mandrel for JDK 25 "
                + "(https://www.graalvm.org/downloads/, https://github.com/graalvm/mandrel/releases) and point "
                + "GRAALVM_HOME at it (or put its bin/native-image on the PATH), or put one in " + cacheFolder;
    }

    /** Whether {@code home} holds {@code bin/native-image} and a JDK {@code release} file. */
    static boolean isHome(Path home) {
        return Files.isExecutable(home.resolve("bin").resolve("native-image"))
                && Files.isRegularFile(home.resolve("release"));
    }

    /**
     * The home of a {@code native-image} found on the PATH: the folder above its {@code bin}, or, when that is no
     * home (a link from {@code /usr/bin}, say), the nearest home above the file the links lead to. A GraalVM's own
     * {@code bin/native-image} is itself a link into {@code lib/svm/bin}, so the links are followed only when the
     * folder above {@code bin} is not a home.
     */
    static Optional<Path> homeOf(Path nativeImage) {
        Path direct = nativeImage.toAbsolutePath().getParent().getParent();
        if (direct != null && isHome(direct)) {
            return Optional.of(direct);
        }
        try {
            for (Path up = nativeImage.toRealPath().getParent(); up != null; up = up.getParent()) {
                if (isHome(up)) {
                    return Optional.of(up);
                }
            }
        } catch (java.io.IOException e) {
            // a dangling link: no home
        }
        return Optional.empty();
    }
}
