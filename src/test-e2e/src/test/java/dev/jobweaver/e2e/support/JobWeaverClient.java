package dev.jobweaver.e2e.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Predicate;

/**
 * A client of the public REST API, as a user's program would use it: JSON over HTTP, nothing else. Every request
 * carries the client's API key as {@code Authorization: Bearer}, unless the request names its own or the client has
 * none ({@link #anonymous()}).
 */
public final class JobWeaverClient {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String baseUrl;
    /** Sent as a bearer with every request; null sends none. */
    private final String apiKey;
    private final HttpClient http;

    /** A client that sends no credentials. */
    public JobWeaverClient(String baseUrl) {
        this(baseUrl, null);
    }

    /** A client that sends {@code apiKey} ({@code jw_...} or a JWT) with every request; null sends none. */
    public JobWeaverClient(String baseUrl, String apiKey) {
        this(baseUrl, apiKey, HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build());
    }

    private JobWeaverClient(String baseUrl, String apiKey, HttpClient http) {
        this.baseUrl = baseUrl;
        this.apiKey = apiKey;
        this.http = http;
    }

    /** The same API with another key (or none, when null), sharing this client's connections. */
    public JobWeaverClient withKey(String key) {
        return new JobWeaverClient(baseUrl, key, http);
    }

    /** The same API without credentials. */
    public JobWeaverClient anonymous() {
        return withKey(null);
    }

    /** The key this client sends, or null. */
    public String apiKey() {
        return apiKey;
    }

    /** The API's address, for a request this client has no method for. */
    public String baseUrl() {
        return baseUrl;
    }

    /** An answer: status, headers and the JSON body (null when the body is not JSON). */
    public record Answer(int status, Map<String, List<String>> headers, String rawBody, JsonNode body) {

        /** The jobId of a 202. */
        public UUID jobId() {
            return UUID.fromString(body.get("jobId").asText());
        }

        /** A header's first value, or null. */
        public String header(String name) {
            return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(e -> e.getValue().getFirst()).findFirst().orElse(null);
        }
    }

    /** POST /api/jobs with {@code body} as given (so malformed bodies can be sent too). */
    public Answer submit(String body) {
        return submit(body, "application/json");
    }

    /** POST /api/jobs with an explicit Content-Type. */
    public Answer submit(String body, String contentType) {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + "/api/jobs"))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    /** POST /api/jobs with an {@code Idempotency-Key} header. */
    public Answer submitWithKey(String body, String idempotencyKey) {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + "/api/jobs"))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", idempotencyKey)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    /** POST a well-formed job, expecting 202. */
    public UUID submitAccepted(String body) {
        Answer answer = submit(body);
        if (answer.status() != 202) {
            throw new AssertionError("expected 202, got " + answer.status() + ": " + answer.rawBody());
        }
        return answer.jobId();
    }

    /** Submits {@code count} copies of {@code body} from {@code parallelism} threads; returns the accepted ids. */
    public List<UUID> submitMany(String body, int count, int parallelism) {
        try (ExecutorService pool = Executors.newFixedThreadPool(parallelism)) {
            List<Future<UUID>> futures = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                futures.add(pool.submit(() -> submitAccepted(body)));
            }
            List<UUID> ids = new ArrayList<>();
            for (Future<UUID> f : futures) {
                ids.add(f.get());
            }
            return ids;
        } catch (Exception e) {
            throw new AssertionError("submitting " + count + " jobs failed", e);
        }
    }

    /** GET any path under the API. */
    public Answer get(String path) {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(30)).GET().build());
    }

    /** POST /api/jobs/{id}/cancel, whatever it answers. */
    public Answer cancel(Object id) {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + "/api/jobs/" + id + "/cancel"))
                .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.noBody()).build());
    }

    /** DELETE /api/jobs/{id}, whatever it answers. */
    public Answer delete(Object id) {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + "/api/jobs/" + id))
                .timeout(Duration.ofSeconds(30)).DELETE().build());
    }

    /** POST a JSON body (or none, when null) to any path under the API, whatever it answers. */
    public Answer post(String path, String json) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(30));
        if (json == null) {
            request.POST(HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json));
        }
        return send(request.build());
    }

    /** POST a JSON body, expecting {@code status}; returns the answer's JSON. */
    public JsonNode postExpecting(String path, String json, int status) {
        Answer answer = post(path, json);
        if (answer.status() != status) {
            throw new AssertionError("POST " + path + " answered " + answer.status() + ", expected " + status + ": "
                    + answer.rawBody());
        }
        return answer.body();
    }

    /** PUT a JSON body to any path under the API, whatever it answers. */
    public Answer put(String path, String json) {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(json)).build());
    }

    /** DELETE any path under the API, whatever it answers. */
    public Answer deletePath(String path) {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(30)).DELETE()
                .build());
    }

    /** GET /api/jobs/{id}, expecting 200. */
    public JsonNode job(UUID id) {
        Answer answer = get("/api/jobs/" + id);
        if (answer.status() != 200) {
            throw new AssertionError("GET job " + id + " answered " + answer.status() + ": " + answer.rawBody());
        }
        return answer.body();
    }

    /** Any request; with the client's key unless it names an Authorization of its own. */
    public Answer send(HttpRequest request) {
        if (apiKey != null && request.headers().firstValue("Authorization").isEmpty()) {
            request = HttpRequest.newBuilder(request, (name, value) -> true)
                    .header("Authorization", "Bearer " + apiKey).build();
        }
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            JsonNode body = null;
            try {
                body = response.body().isBlank() ? null : JSON.readTree(response.body());
            } catch (IOException notJson) {
                // left null: the caller asserts on rawBody
            }
            return new Answer(response.statusCode(), response.headers().map(), response.body(), body);
        } catch (IOException e) {
            throw new UncheckedIOException(request.method() + " " + request.uri() + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Polls until every job satisfies {@code done} (on its GET body) or the timeout passes; returns the last body
     * of every job. Jobs already done are not polled again.
     */
    public Map<UUID, JsonNode> awaitAll(Collection<UUID> ids, Predicate<JsonNode> done, Duration timeout) {
        Map<UUID, JsonNode> last = new HashMap<>();
        Set<UUID> open = new HashSet<>(ids);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!open.isEmpty() && System.nanoTime() < deadline) {
            for (UUID id : List.copyOf(open)) {
                Answer answer = get("/api/jobs/" + id);
                if (answer.status() == 200) {
                    last.put(id, answer.body());
                    if (done.test(answer.body())) {
                        open.remove(id);
                    }
                }
            }
            if (!open.isEmpty()) {
                E2ePlatform.sleep(250);
            }
        }
        return last;
    }

    /** Whether a job's GET body shows a terminal status. */
    public static boolean terminal(JsonNode job) {
        return terminalStatus(job.path("status").asText());
    }

    /** Whether {@code status} is one a job never leaves. */
    public static boolean terminalStatus(String status) {
        return status.equals("COMPLETED") || status.equals("FAILED") || status.equals("REJECTED")
                || status.equals("CANCELLED");
    }
}
