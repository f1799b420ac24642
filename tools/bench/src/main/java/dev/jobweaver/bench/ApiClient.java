package dev.jobweaver.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * The bench's client of the public REST API: {@code POST /api/jobs}, {@code POST /api/jobs/{id}/cancel} and the
 * JSON requests of the schedules and subscriptions resources asynchronously, and the readiness probe.
 *
 * <p>Why Vert.x and not {@code java.net.http}: the load generator shares the two cores with what it measures. With
 * the JDK client it took a quarter of a core during a 20,000-job burst (its selector and executor threads, 9% of all
 * samples in {@code perf}); a Vert.x client on one event loop, keep-alive connections, no pipelining (the API answers
 * a connection's requests in order anyway) took 11-14% of a core for the same bursts.
 *
 * <p>Every request but the readiness probe carries the client's API key, if it has one: the bench measures the
 * secured platform, authentication included.
 *
 * <p>Threads: every answer completes on the client's single event loop, so a caller's continuation must not block.
 * {@link #close()} stops that loop.
 */
public final class ApiClient implements AutoCloseable {

    /** Connections kept to the API by default; beyond it, requests wait for a free one. */
    static final int MAX_CONNECTIONS = 512;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);
    private static final long PROBE_TIMEOUT_MS = 5_000;

    private final Vertx vertx;
    /** The client's one event-loop context, where every submission runs. */
    private final Context context;
    private final HttpClient http;
    private final String baseUrl;
    private final String basePath;
    private final Duration requestTimeout;
    /** Sent as {@code Authorization: Bearer}; null sends none. */
    private final String apiKey;

    /** A client of the API at {@code baseUrl} ({@code http://localhost:8080}) that sends no credentials. */
    public ApiClient(String baseUrl) {
        this(baseUrl, null, REQUEST_TIMEOUT, MAX_CONNECTIONS);
    }

    /**
     * A client of the API at {@code baseUrl} that sends {@code apiKey} as {@code Authorization: Bearer} with every
     * request but the readiness probe; null sends none (an API run open).
     */
    public ApiClient(String baseUrl, String apiKey) {
        this(baseUrl, apiKey, REQUEST_TIMEOUT, MAX_CONNECTIONS);
    }

    /**
     * A client of the API at {@code baseUrl} that opens {@code maxConnections} connections at most: a burst's client
     * of that concurrency, as the targets describe it ("a client with 64 connections").
     */
    public ApiClient(String baseUrl, int maxConnections) {
        this(baseUrl, null, REQUEST_TIMEOUT, maxConnections);
    }

    /** A client whose submissions are answered within {@code requestTimeout} (status 0 when the API is silent). */
    ApiClient(String baseUrl, Duration requestTimeout) {
        this(baseUrl, null, requestTimeout, MAX_CONNECTIONS);
    }

    private ApiClient(String baseUrl, String apiKey, Duration requestTimeout, int maxConnections) {
        if (maxConnections < 1) {
            throw new IllegalArgumentException("at least one connection, got " + maxConnections);
        }
        this.apiKey = apiKey;
        this.requestTimeout = requestTimeout;
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        URI uri = URI.create(this.baseUrl);
        this.basePath = uri.getRawPath() == null ? "" : uri.getRawPath();
        this.vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1).setWorkerPoolSize(1)
                .setInternalBlockingPoolSize(1));
        this.http = vertx.createHttpClient(new HttpClientOptions()
                        .setDefaultHost(uri.getHost())
                        .setDefaultPort(uri.getPort() > 0 ? uri.getPort() : 80)
                        .setConnectTimeout((int) PROBE_TIMEOUT_MS)
                        .setKeepAlive(true),
                new PoolOptions().setHttp1MaxSize(maxConnections));
        this.context = vertx.getOrCreateContext();
    }

    /**
     * Another client of the same API with the same credentials and timeout, of {@code maxConnections} connections at
     * most, on an event loop of its own; the caller closes it.
     */
    public ApiClient withConnections(int maxConnections) {
        return new ApiClient(baseUrl, apiKey, requestTimeout, maxConnections);
    }

    /** As {@link #withConnections}, with the default number of connections. */
    public ApiClient another() {
        return withConnections(MAX_CONNECTIONS);
    }

    /**
     * An answer to a submission.
     *
     * @param status the HTTP status, or 0 when the request failed before an answer
     * @param jobId the accepted job's id (202 only), else null
     * @param body the raw body, or the failure's message
     */
    public record Answer(int status, UUID jobId, String body) {

        /** Whether the job was accepted. */
        public boolean accepted() {
            return status == 202 && jobId != null;
        }
    }

    /**
     * Sends one job; the future never fails (a transport error becomes status 0) and always completes within the
     * request timeout. Vert.x's own timeout covers a request on a connection; the outer bound also covers whatever
     * might keep a request from ever reaching one (a 600 jobs/s steady run once waited for its last answer for
     * ten minutes), so a run can never hang on one request.
     */
    public CompletableFuture<Answer> submit(String body) {
        return submit(body, null);
    }

    /** {@link #submit(String)} with the header {@code Idempotency-Key: idempotencyKey}, none when it is null. */
    public CompletableFuture<Answer> submit(String body, String idempotencyKey) {
        RequestOptions request = authorized(new RequestOptions().setMethod(HttpMethod.POST).setURI(basePath + "/api/jobs")
                .setTimeout(requestTimeout.toMillis()).putHeader("Content-Type", "application/json"));
        if (idempotencyKey != null) {
            request.putHeader("Idempotency-Key", idempotencyKey);
        }
        return onLoop(() -> http.request(request)
                .compose(r -> r.send(Buffer.buffer(body)))
                .compose(response -> response.body().map(b -> answer(response, b.toString(StandardCharsets.UTF_8)))))
                .orTimeout(requestTimeout.toMillis() + 1_000, TimeUnit.MILLISECONDS)
                .exceptionally(e -> new Answer(0, null, describe(e)));
    }

    /**
     * Cancels job {@code id}: an answer with the status and body, {@code jobId} set to {@code id} when it is 202 (the
     * body is the job, whose field is {@code id}). Like {@link #submit}, the future never fails and completes within
     * the request timeout.
     */
    public CompletableFuture<Answer> cancel(UUID id) {
        RequestOptions request = authorized(new RequestOptions().setMethod(HttpMethod.POST)
                .setURI(basePath + "/api/jobs/" + id + "/cancel").setTimeout(requestTimeout.toMillis()));
        return onLoop(() -> http.request(request)
                .compose(r -> r.send())
                .compose(response -> response.body().map(b -> new Answer(response.statusCode(),
                        response.statusCode() == 202 ? id : null, b.toString(StandardCharsets.UTF_8)))))
                .orTimeout(requestTimeout.toMillis() + 1_000, TimeUnit.MILLISECONDS)
                .exceptionally(e -> new Answer(0, null, describe(e)));
    }

    /**
     * Sends {@code method} to {@code path} (below the base URL) with the JSON {@code body}, or none when it is null:
     * an answer with the status and body, never a job id. Like {@link #submit}, the future never fails and completes
     * within the request timeout.
     */
    public CompletableFuture<Answer> send(HttpMethod method, String path, String body) {
        RequestOptions request = authorized(new RequestOptions().setMethod(method).setURI(basePath + path)
                .setTimeout(requestTimeout.toMillis()));
        if (body != null) {
            request.putHeader("Content-Type", "application/json");
        }
        return onLoop(() -> http.request(request)
                .compose(r -> body == null ? r.send() : r.send(Buffer.buffer(body)))
                .compose(response -> response.body().map(b -> new Answer(response.statusCode(), null,
                        b.toString(StandardCharsets.UTF_8)))))
                .orTimeout(requestTimeout.toMillis() + 1_000, TimeUnit.MILLISECONDS)
                .exceptionally(e -> new Answer(0, null, describe(e)));
    }

    /** {@code request} with the client's credentials, when it has any. */
    private RequestOptions authorized(RequestOptions request) {
        return apiKey == null ? request : request.putHeader("Authorization", "Bearer " + apiKey);
    }

    /** Whether {@code /q/health/ready} answers 200 within a few seconds (health needs no credentials). */
    public boolean ready() {
        RequestOptions request = new RequestOptions().setMethod(HttpMethod.GET).setURI(basePath + "/q/health/ready")
                .setTimeout(PROBE_TIMEOUT_MS);
        try {
            return onLoop(() -> http.request(request)
                    .compose(r -> r.send())
                    .compose(response -> response.body().map(b -> response.statusCode() == 200)))
                    .get(PROBE_TIMEOUT_MS + 1_000, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Runs {@code exchange} on the client's event loop, not on the caller's thread, and completes with its outcome.
     * Started from the caller's thread, about one answer in 250 that the server had sent never reached its caller,
     * which then ran into its timeout (ApiClientAnswersTest: 23 of 6,000; an open-loop run lost its last answer
     * about once in a hundred).
     */
    private <T> CompletableFuture<T> onLoop(Supplier<Future<T>> exchange) {
        CompletableFuture<T> outcome = new CompletableFuture<>();
        context.runOnContext(ignored -> exchange.get().onComplete(result -> {
            if (result.succeeded()) {
                outcome.complete(result.result());
            } else {
                outcome.completeExceptionally(result.cause());
            }
        }));
        return outcome;
    }

    /** The base URL. */
    public String baseUrl() {
        return baseUrl;
    }

    /** Closes the connections and stops the event loop. */
    @Override
    public void close() {
        vertx.close().toCompletionStage().toCompletableFuture().orTimeout(5, TimeUnit.SECONDS).exceptionally(e -> null)
                .join();
    }

    private static Answer answer(HttpClientResponse response, String body) {
        int status = response.statusCode();
        UUID id = null;
        if (status == 202) {
            try {
                JsonNode node = JSON.readTree(body);
                id = UUID.fromString(node.path("jobId").asText());
            } catch (IOException | IllegalArgumentException e) {
                return new Answer(status, null, "202 without a jobId: " + body);
            }
        }
        return new Answer(status, id, body);
    }

    private static String describe(Throwable e) {
        Throwable cause = e.getCause() != null ? e.getCause() : e;
        return cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
    }
}
