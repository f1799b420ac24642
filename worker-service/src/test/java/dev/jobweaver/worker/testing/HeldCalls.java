package dev.jobweaver.worker.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.common.job.HttpCallPayload;
import dev.jobweaver.common.job.JobType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A server on 127.0.0.1 whose calls answer only once the test releases them: HTTP jobs that run exactly as long as a
 * test needs them to, however fast or loaded the machine, instead of sleeping for a guess at that.
 *
 * <p>Thread-safe: the server answers on virtual threads of its own; {@link #job} and {@link #release} may be called
 * from any thread. A call for a job already released (a run delivered again) answers at once.
 */
public final class HeldCalls implements AutoCloseable {

    /** The longest a call is held (and the HTTP job's own timeout): far beyond any test's wait. */
    private static final Duration AT_MOST = Duration.ofMinutes(2);

    private final HttpServer server;
    private final String base;
    private final Map<String, CountDownLatch> holds = new ConcurrentHashMap<>();
    private final Map<UUID, String> keys = new ConcurrentHashMap<>();

    private HeldCalls() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/hold/", this::hold);
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort() + "/hold/";
    }

    public static HeldCalls start() {
        return new HeldCalls();
    }

    /** A first attempt of an HTTP job whose call is held until {@link #release} names it. */
    public RunJobEvent job() {
        String key = UUID.randomUUID().toString();
        holds.put(key, new CountDownLatch(1));
        RunJobEvent run = WorkerKafka.run(JobType.HTTP,
                new HttpCallPayload("GET", base + key, null, null, null, AT_MOST.toMillis()), null);
        keys.put(run.jobId(), key);
        return run;
    }

    /** Lets the call of {@code run}'s job answer 200, now and whenever it is made again. */
    public void release(RunJobEvent run) {
        holds.get(keys.get(run.jobId())).countDown();
    }

    private void hold(HttpExchange exchange) throws IOException {
        String key = exchange.getRequestURI().getPath().substring("/hold/".length());
        CountDownLatch latch = holds.get(key);
        try {
            if (latch != null) {
                latch.await(AT_MOST.toMillis(), TimeUnit.MILLISECONDS);
            }
            exchange.sendResponseHeaders(200, -1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            exchange.close();
        }
    }

    /** Releases every call still held and stops the server. */
    @Override
    public void close() {
        holds.values().forEach(CountDownLatch::countDown);
        server.stop(0);
    }
}
