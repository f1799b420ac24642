package dev.jobweaver.local;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/**
 * What every child process of the local platform (broker, services, trace viewer) needs: its JVM options with an
 * operator's own after them, a graceful stop, a wait for an HTTP readiness answer, and starting things side by side
 * without losing their failures.
 */
final class Processes {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

    private Processes() {
    }

    /**
     * {@code defaults} followed by {@code extra} split on white space, so that an operator's option comes last and
     * wins (e.g. from {@code JOBWEAVER_JAVA_OPTS}); null or blank adds nothing.
     */
    static List<String> withExtraOptions(List<String> defaults, String extra) {
        if (extra == null || extra.isBlank()) {
            return List.copyOf(defaults);
        }
        List<String> all = new ArrayList<>(defaults);
        all.addAll(List.of(extra.trim().split("\\s+")));
        return List.copyOf(all);
    }

    /**
     * SIGTERM, so the process shuts down cleanly; SIGKILL if it is still alive after {@code grace}.
     *
     * @return whether it had to be killed
     */
    static boolean stop(Process process, Duration grace) {
        process.destroy();
        try {
            if (process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                return false;
            }
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        return true;
    }

    /**
     * Polls {@code url} until it answers 200: every {@link #NOT_LISTENING_POLL_MILLIS} ms while nothing listens, every
     * 100 ms once something answers otherwise (each answer runs the service's health checks).
     *
     * @param logs where the process's output is, for the message
     * @throws IllegalStateException naming {@code what} and its {@code logs} if the process exits or the timeout
     *                               passes first
     */
    static void awaitHttpOk(Process process, URI url, Duration timeout, String what, String logs) {
        HttpRequest request = HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(2)).build();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(what + " exited during start-up with code " + process.exitValue()
                        + "; see " + logs);
            }
            try {
                if (HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
                Thread.sleep(100);
            } catch (IOException notListeningYet) {
                sleepQuietly();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + what, e);
            }
        }
        throw new IllegalStateException(what + " was not ready within " + timeout + "; see " + logs);
    }

    /**
     * Runs {@code task} on a virtual thread named {@code name}; {@link #await} returns when it is done and rethrows
     * its failure. (A bare thread's exception is only printed, and the caller goes on as if all were well.)
     */
    static CompletableFuture<Void> inBackground(String name, Runnable task) {
        return CompletableFuture.runAsync(task, runnable -> Thread.ofVirtual().name(name).start(runnable));
    }

    /** Waits for a task of {@link #inBackground} and rethrows what it threw. */
    static void await(CompletableFuture<Void> task, String what) {
        try {
            task.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause
                    : new IllegalStateException(what + " did not start", e.getCause());
        }
    }

    /**
     * How often {@link #awaitHttpOk} asks while the port is still closed, and so the resolution of the "ready in"
     * figures {@code up} prints and the bench reports: a native service is ready in 0.1-0.3 s, which polls 100 ms
     * apart overstated by up to 100 ms. A refused connection on loopback costs the launcher well under a millisecond.
     */
    static final long NOT_LISTENING_POLL_MILLIS = 10;

    private static void sleepQuietly() {
        try {
            Thread.sleep(NOT_LISTENING_POLL_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
