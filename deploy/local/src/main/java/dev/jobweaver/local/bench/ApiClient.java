package dev.jobweaver.local.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/** The bench's client of the public REST API: {@code POST /api/jobs} asynchronously, and the readiness probe. */
public final class ApiClient {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final String baseUrl;
    private final URI jobs;

    /** A client of the API at {@code baseUrl} ({@code http://localhost:8080}). */
    public ApiClient(String baseUrl) {
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        this.jobs = URI.create(this.baseUrl + "/api/jobs");
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

    /** Sends one job; the future never fails (a transport error becomes status 0). */
    public CompletableFuture<Answer> submit(String body) {
        HttpRequest request = HttpRequest.newBuilder(jobs).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofString())
                .thenApply(ApiClient::answer)
                .exceptionally(e -> new Answer(0, null, describe(e)));
    }

    /** Whether {@code /q/health/ready} answers 200 within a few seconds. */
    public boolean ready() {
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + "/q/health/ready"))
                .timeout(Duration.ofSeconds(5)).GET().build();
        try {
            return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The base URL. */
    public String baseUrl() {
        return baseUrl;
    }

    private static Answer answer(HttpResponse<String> response) {
        UUID id = null;
        if (response.statusCode() == 202) {
            try {
                JsonNode node = JSON.readTree(response.body());
                id = UUID.fromString(node.path("jobId").asText());
            } catch (IOException | IllegalArgumentException e) {
                return new Answer(response.statusCode(), null, "202 without a jobId: " + response.body());
            }
        }
        return new Answer(response.statusCode(), id, response.body());
    }

    private static String describe(Throwable e) {
        Throwable cause = e.getCause() != null ? e.getCause() : e;
        return cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
    }
}
