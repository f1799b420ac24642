package dev.jobweaver.e2e.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

/**
 * Reads a trace from the platform's Zipkin, for scenarios that poll until a trace is complete. HTTP/1.1, and a failed
 * read counts as "not there yet": over HTTP/2 the viewer once closed a reused connection mid-poll, and the scenario
 * failed on the EOF instead of asking again.
 */
public final class TraceViewer {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final String apiUrl;

    public TraceViewer(String apiUrl) {
        this.apiUrl = apiUrl;
    }

    /** The spans of {@code traceId} as Zipkin has them now; empty while it has none or did not answer. */
    public Optional<JsonNode> spans(String traceId) {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(apiUrl + "/trace/" + traceId))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? Optional.of(JSON.readTree(response.body())) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}
