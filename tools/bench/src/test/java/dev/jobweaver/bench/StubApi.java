package dev.jobweaver.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.assertj.core.api.AbstractStringAssert;

/**
 * A fake API for the bench's unit tests: the JDK's HTTP server on a free loopback port, answering every request
 * under one path by a {@link Route}, and an {@link ApiClient} to it. Each request is recorded, in arrival order, as
 * {@code "METHOD path body"}. Closing stops the client and the server; a test holds it in an {@code @AutoClose} field.
 */
final class StubApi implements AutoCloseable {

    /** How the stub answers a request; {@code body} is the request's, already read. */
    interface Route {
        void handle(HttpExchange exchange, String body) throws IOException;
    }

    /** Every request so far, as {@code "METHOD path body"}. */
    final List<String> requests = new CopyOnWriteArrayList<>();
    private final HttpServer server;
    private final ExecutorService handlers;
    private final ApiClient client;

    private StubApi(String path, int threads, Route route) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        // More than one thread lets the requests a client keeps in flight be in flight at the stub too.
        handlers = threads > 1 ? Executors.newFixedThreadPool(threads) : null;
        server.setExecutor(handlers);
        server.createContext(path, exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath() + " " + body);
            route.handle(exchange, body);
        });
        server.start();
        client = new ApiClient(url());
    }

    /** A started stub answering the requests under {@code path} (e.g. {@code /api/}) by {@code route}. */
    static StubApi serving(String path, Route route) throws IOException {
        return new StubApi(path, 1, route);
    }

    /** Likewise, answering up to {@code threads} requests at once. */
    static StubApi serving(String path, int threads, Route route) throws IOException {
        return new StubApi(path, threads, route);
    }

    /** Where the stub listens, for a client of a test's own settings. */
    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    ApiClient client() {
        return client;
    }

    /** A runner of what {@code args} (bench's command line) name against this API, no database, lines to console. */
    WorkloadRunner runner(List<String> args, OutputStream console) {
        BenchOptions options = BenchOptions.parse(args, Path.of("/r"));
        return new WorkloadRunner(options, client, null, null, Fixtures.platform(), () -> ReplicaShare.Snapshot.NONE,
                new PrintStream(console, true), false);
    }

    /**
     * The note of {@code result}, a workload run against an API without its feature, once the result is asserted
     * unavailable: the note says why.
     */
    static AbstractStringAssert<?> assertUnavailable(WorkloadResult result) {
        assertThat(result.available()).isFalse();
        return assertThat(result.note());
    }

    /** Answers {@code status} with {@code body}; an empty body is sent as none (no Content-Length). */
    static void answer(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    @Override
    public void close() {
        client.close();
        server.stop(0);
        if (handlers != null) {
            handlers.shutdownNow();
        }
    }
}
