package dev.jobweaver.worker.handler.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobweaver.common.error.WorkerErrorCode;
import dev.jobweaver.common.job.HttpCallPayload;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.job.Results;
import dev.jobweaver.common.net.Destinations;
import dev.jobweaver.sdk.JobFailure;
import dev.jobweaver.sdk.JobHandler;
import dev.jobweaver.sdk.RunContext;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs {@link JobType#HTTP} jobs: one outbound request, made with the JDK's HTTP client (one client for every run)
 * and awaited on the run's virtual thread.
 *
 * <ul>
 *   <li>The destination must be allowed ({@link Destinations}): the host name, then every address it resolves to. The
 *       client then connects to the address the JVM's DNS cache holds for the host, the one just checked.</li>
 *   <li>Redirects are not followed: a 3xx is the answer, and fails unless {@code expectedStatus} names it, so a
 *       redirect can never lead to a refused address.</li>
 *   <li>The request (connection, answer and body) takes at most {@code payload.timeoutMs}, or
 *       {@code jobweaver.worker.http.default-timeout}, cut to the attempt's deadline.</li>
 *   <li>Success is a status in {@code expectedStatus} (any 2xx when absent); the result is
 *       {@code {"status": N, "body": "<first bytes as UTF-8 text>", "truncated": bool}}, within 64 KiB.</li>
 *   <li>Anything else fails the attempt with a message starting {@code WORKER.HTTP_CALL_FAILED} that names the
 *       status or the cause. The URL in messages has no query and no user info, which may hold secrets.</li>
 * </ul>
 *
 * <p>The call is a client span of the job's trace ({@code HTTP <method>}). No trace context is sent to the
 * destination, which may be a third party.
 */
@ApplicationScoped
class HttpCallHandler implements JobHandler<HttpCallPayload> {

    private static final int MAX_SHOWN_PATH = 200;

    private final HttpCallConfig config;
    private final Destinations destinations;
    private final HttpClient client;
    private final Tracer tracer;

    public HttpCallHandler(HttpCallConfig config, Tracer tracer) {
        if (config.maxBodyBytes() < 0 || config.maxBodyBytes() > Results.MAX_BYTES) {
            throw new IllegalArgumentException("jobweaver.worker.http.max-body-bytes must be between 0 and "
                    + Results.MAX_BYTES + ", got " + config.maxBodyBytes());
        }
        this.config = config;
        this.tracer = tracer;
        this.destinations = new Destinations("jobweaver.worker.http", "HTTP jobs", config);
        this.client = HttpClient.newBuilder()
                .followRedirects(HttpClient.Redirect.NEVER)
                .proxy(HttpClient.Builder.NO_PROXY) // a proxy would connect to addresses nobody checked
                .connectTimeout(config.connectTimeout())
                .build();
    }

    @Override
    public String type() {
        return JobType.HTTP.name();
    }

    @Override
    public Class<HttpCallPayload> payloadType() {
        return HttpCallPayload.class;
    }

    @Override
    public Duration expectedDuration(HttpCallPayload payload) {
        return requestTimeout(payload);
    }

    @Override
    public JsonNode run(RunContext<HttpCallPayload> run) throws JobFailure, InterruptedException {
        HttpCallPayload payload = run.payload();
        String method = payload.method() == null ? "GET" : payload.method().toUpperCase(Locale.ROOT);
        Span span = tracer.spanBuilder("HTTP " + method)
                .setSpanKind(SpanKind.CLIENT)
                .setAttribute("http.request.method", method)
                .startSpan();
        try (Scope ignored = span.makeCurrent()) {
            return call(run, method, span);
        } catch (JobFailure failure) {
            span.setStatus(StatusCode.ERROR, failure.getMessage());
            throw failure;
        } catch (InterruptedException | RuntimeException e) {
            span.setStatus(StatusCode.ERROR, e.toString());
            throw e;
        } finally {
            span.end();
        }
    }

    private ObjectNode call(RunContext<HttpCallPayload> run, String method, Span span)
            throws JobFailure, InterruptedException {
        HttpCallPayload payload = run.payload();
        URI uri;
        try {
            uri = new URI(payload.url());
        } catch (URISyntaxException | NullPointerException e) {
            throw failed("url is not a valid URI"); // the event rules let none through; its text may hold secrets
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
            throw failed("url must be an absolute http or https URL with a host");
        }
        String where = method + " " + shown(uri);
        span.setAttribute("url.full", shown(uri));
        if (uri.getRawUserInfo() != null) {
            // The client would not send it, and it must not reach messages or logs: credentials go in a header.
            throw failed(where + " could not be sent: the url holds user info; send credentials in a header"
                    + " (Authorization) instead");
        }
        String host = uri.getHost().startsWith("[") ? uri.getHost().substring(1, uri.getHost().length() - 1)
                : uri.getHost();
        String refusal = destinations.hostRefusal(host);
        if (refusal == null) {
            InetAddress[] addresses;
            try {
                addresses = InetAddress.getAllByName(host);
            } catch (UnknownHostException e) {
                throw failed(where + " failed: host " + host + " could not be resolved");
            }
            refusal = destinations.addressRefusal(host, addresses);
        }
        if (refusal != null) {
            throw failed(where + " refused: " + refusal);
        }

        Duration requested = requestTimeout(payload);
        long remaining = run.deadline().remainingNanos();
        if (remaining == 0) {
            throw new JobFailure(run.deadline().exceeded());
        }
        boolean deadlineFirst = remaining < requested.toNanos();
        Duration limit = deadlineFirst ? Duration.ofNanos(remaining) : requested;
        HttpRequest request = request(uri, method, payload, body(run), limit, where);

        CompletableFuture<HttpResponse<ResponsePrefix>> sent =
                client.sendAsync(request, ResponsePrefix.handler(config.maxBodyBytes()));
        HttpResponse<ResponsePrefix> response;
        try {
            response = sent.get(limit.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            sent.cancel(true);
            throw timedOut(run, where, requested, deadlineFirst);
        } catch (InterruptedException e) {
            sent.cancel(true);
            throw e;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof HttpConnectTimeoutException) {
                throw failed(where + " failed: no connection within " + config.connectTimeout().toMillis() + " ms");
            }
            if (cause instanceof HttpTimeoutException) {
                throw timedOut(run, where, requested, deadlineFirst);
            }
            throw failed(where + " failed: " + describe(cause));
        }

        int status = response.statusCode();
        span.setAttribute("http.response.status_code", status);
        if (!expected(payload.expectedStatus(), status)) {
            throw failed(where + " answered " + status + ", expected "
                    + (payload.expectedStatus() == null ? "2xx" : "one of " + payload.expectedStatus())
                    + (status >= 300 && status < 400 ? " (redirects are not followed)" : ""));
        }
        return result(status, response.body());
    }

    /**
     * The request; a failure naming what the client refused. Messages name a header, never its value, and show the
     * URL without its query: either may hold a secret.
     */
    private static HttpRequest request(URI uri, String method, HttpCallPayload payload, String body, Duration limit,
                                       String where) throws JobFailure {
        HttpRequest.Builder builder;
        try {
            builder = HttpRequest.newBuilder(uri)
                    .timeout(limit)
                    .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            throw failed(where + " could not be sent: the HTTP client refused the url or the method");
        }
        if (payload.body() == null && body != null && (payload.headers() == null || payload.headers().keySet()
                .stream().noneMatch(name -> name.equalsIgnoreCase("Content-Type")))) {
            builder.header("Content-Type", "application/json");
        }
        if (payload.headers() != null) {
            for (Map.Entry<String, String> header : payload.headers().entrySet()) {
                try {
                    builder.header(header.getKey(), header.getValue());
                } catch (IllegalArgumentException e) {
                    // Host, Connection, Content-Length, Expect and Upgrade are the client's own to set.
                    throw failed(where + " could not be sent: header " + header.getKey()
                            + " is one the HTTP client sets itself, or its value is invalid");
                }
            }
        }
        return builder.build();
    }

    /**
     * The request body: the payload's {@code body}; without one, what the job received as JSON
     * ({@code {"input": ..., "results": ...}}: an inbound hook's body, a workflow run's input and the node's
     * dependencies' results), so that a job can pass them on; null (no body) when it received nothing.
     */
    static String body(RunContext<HttpCallPayload> run) {
        if (run.payload().body() != null) {
            return run.payload().body();
        }
        return run.hasData() ? run.data().toString() : null;
    }

    private Duration requestTimeout(HttpCallPayload payload) {
        return payload.timeoutMs() == null ? config.defaultTimeout() : Duration.ofMillis(payload.timeoutMs());
    }

    private static boolean expected(List<Integer> statuses, int status) {
        return statuses == null ? status >= 200 && status < 300 : statuses.contains(status);
    }

    /**
     * The result: the status and as much of the body as fits. A body that escapes to more JSON than the 64 KiB bound
     * (control characters take six bytes each) is cut further until it fits. U+0000, which the database cannot store,
     * becomes U+FFFD.
     */
    static ObjectNode result(int status, ResponsePrefix body) {
        byte[] bytes = body.bytes();
        int kept = bytes.length;
        while (true) {
            int end = kept < bytes.length || body.truncated() ? utf8Boundary(bytes, kept) : kept;
            String text = new String(bytes, 0, end, StandardCharsets.UTF_8).replace('\0', '\uFFFD');
            ObjectNode result = JsonNodeFactory.instance.objectNode()
                    .put("status", status)
                    .put("body", text)
                    .put("truncated", body.truncated() || kept < bytes.length);
            if (!Results.tooLarge(result)) {
                return result;
            }
            kept /= 2;
        }
    }

    /** The largest length up to {@code n} that does not end inside a UTF-8 character. */
    static int utf8Boundary(byte[] bytes, int n) {
        int lead = n;
        while (lead > 0 && n - lead < 4 && (bytes[lead - 1] & 0xc0) == 0x80) {
            lead--; // continuation bytes
        }
        if (lead == 0) {
            return n;
        }
        int first = bytes[lead - 1] & 0xff;
        int length = first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : first >= 0xc0 ? 2 : 1;
        return n - (lead - 1) >= length ? n : lead - 1;
    }

    private JobFailure timedOut(RunContext<HttpCallPayload> run, String where, Duration requested,
            boolean deadlineFirst) {
        return deadlineFirst ? new JobFailure(run.deadline().exceeded())
                : failed(where + " timed out after " + requested.toMillis() + " ms");
    }

    private static JobFailure failed(String detail) {
        return JobFailure.withCode(WorkerErrorCode.HTTP_CALL_FAILED.code(), detail);
    }

    /** The URL without its query, fragment and user info, which may hold secrets; a long path is cut. */
    private static String shown(URI uri) {
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        if (path.length() > MAX_SHOWN_PATH) {
            path = path.substring(0, MAX_SHOWN_PATH) + "...";
        }
        return uri.getScheme() + "://" + uri.getHost() + (uri.getPort() < 0 ? "" : ":" + uri.getPort()) + path;
    }

    private static String describe(Throwable cause) {
        String message = cause.getMessage();
        String described = cause.getClass().getSimpleName() + (message == null || message.isBlank() ? ""
                : ": " + message);
        return described.length() > 300 ? described.substring(0, 300) + "..." : described;
    }

    @PreDestroy
    void stop() {
        client.shutdownNow();
    }
}
