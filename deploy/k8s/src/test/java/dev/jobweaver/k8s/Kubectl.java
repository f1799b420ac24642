package dev.jobweaver.k8s;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Finds kubectl (the KUBECTL variable, else PATH) and runs `kubectl kustomize` on a folder, offline. */
final class Kubectl {

    /** Kustomize 5 is what the kustomizations are written for (labels, patches with paths, replicas). */
    static final int MIN_KUSTOMIZE_MAJOR = 5;

    static final String INSTALL_HINT = """
            kubectl was not found: set KUBECTL to its path or put it on PATH. The checks of deploy/k8s render \
            every overlay with `kubectl kustomize` (offline, no cluster needed) and need kubectl 1.27 or later \
            (kustomize v5). Debian's `kubernetes-client` package is kubectl 1.20 with kustomize v2 and is too old; \
            install kubectl from the Kubernetes project's packages or as a single binary.""";

    private static volatile Path located;

    private Kubectl() {
    }

    /** The kubectl this JVM uses, checked once for its kustomize version. */
    static Path get() {
        Path path = located;
        if (path == null) {
            synchronized (Kubectl.class) {
                if (located == null) {
                    Path candidate = locate(System.getenv());
                    checkKustomizeVersion(candidate);
                    located = candidate;
                }
                path = located;
            }
        }
        return path;
    }

    /** KUBECTL if set, else the first executable `kubectl` on PATH; fails with an installation hint otherwise. */
    static Path locate(Map<String, String> env) {
        String explicit = env.get("KUBECTL");
        if (explicit != null && !explicit.isBlank()) {
            Path path = Path.of(explicit);
            if (Files.isExecutable(path)) {
                return path;
            }
            throw new IllegalStateException("KUBECTL=" + explicit + " is not an executable file. " + INSTALL_HINT);
        }
        String pathVariable = Optional.ofNullable(env.get("PATH")).orElse("");
        for (String dir : pathVariable.split(java.io.File.pathSeparator)) {
            if (dir.isBlank()) {
                continue;
            }
            Path candidate = Path.of(dir, "kubectl");
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException(INSTALL_HINT);
    }

    /** The "v5.5.0" of `kubectl version --client` as its major number, or -1 when it cannot be read. */
    static int kustomizeMajor(String versionOutput) {
        Matcher matcher = Pattern.compile("\"?kustomizeVersion\"?\\s*[:=]\\s*\"?v?(\\d+)").matcher(versionOutput);
        if (matcher.find()) {
            return Integer.parseInt(matcher.group(1));
        }
        matcher = Pattern.compile("Kustomize Version:\\s*v?(\\d+)").matcher(versionOutput);
        return matcher.find() ? Integer.parseInt(matcher.group(1)) : -1;
    }

    private static void checkKustomizeVersion(Path kubectl) {
        Result result = run(List.of(kubectl.toString(), "version", "--client", "-o", "json"), 60);
        int major = kustomizeMajor(result.stdout());
        if (result.exitCode() != 0 || major < MIN_KUSTOMIZE_MAJOR) {
            throw new IllegalStateException(kubectl + " embeds kustomize major version " + major + " (exit "
                    + result.exitCode() + ", " + result.stderr().strip() + "); " + MIN_KUSTOMIZE_MAJOR
                    + " or later is needed. " + INSTALL_HINT);
        }
    }

    /** `kubectl kustomize DIR`: the rendered multi-document YAML, or an AssertionError carrying kubectl's message. */
    static String kustomize(Path dir) {
        List<String> command = new ArrayList<>(List.of(get().toString(), "kustomize", dir.toString()));
        Result result = run(command, 120);
        if (result.exitCode() != 0) {
            throw new AssertionError("`kubectl kustomize " + dir + "` failed (exit " + result.exitCode() + "):\n"
                    + result.stderr());
        }
        return result.stdout();
    }

    record Result(int exitCode, String stdout, String stderr) {
    }

    static Result run(List<String> command, long timeoutSeconds) {
        try {
            Process process = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(nullDevice()))
                    .start();
            CompletableFuture<String> out = readAsync(process.getInputStream());
            CompletableFuture<String> err = readAsync(process.getErrorStream());
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError(String.join(" ", command) + " did not finish in " + timeoutSeconds + " s");
            }
            return new Result(process.exitValue(), out.join(), err.join());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + String.join(" ", command), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static java.io.File nullDevice() {
        return new java.io.File(System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
    }

    private static CompletableFuture<String> readAsync(InputStream stream) {
        return CompletableFuture.supplyAsync(() -> {
            try (stream) {
                return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }
}
