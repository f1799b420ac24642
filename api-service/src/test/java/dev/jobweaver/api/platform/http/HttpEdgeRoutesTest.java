package dev.jobweaver.api.platform.http;

import static dev.jobweaver.api.testing.Answers.assertRefused;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.testing.Answers;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Answers given at the HTTP edge are ErrorResponse JSON too: 413 (with and without Content-Length), 415, 405, 406; and
 * a client offering an HTTP/2 upgrade is served.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class HttpEdgeRoutesTest {

    @TestHTTPResource("/api/jobs")
    URI jobs;

    private static String bodyOfSize(int bytes) {
        String head = "{\"jobType\":\"SIMULATION\",\"payload\":{\"steps\":[{\"action\":\"LOG\",\"message\":\"";
        String tail = "\"}]}}";
        return head + "x".repeat(bytes - head.length() - tail.length()) + tail;
    }

    @Test
    void aJavaHttpClientOfferingAnHttp2UpgradeCanSubmit() throws Exception {
        // java.net.http asks for an h2c upgrade on plain http and sends the body with that request; the API must
        // answer it like any other submission (it once answered 500 "Request has already been read").
        HttpResponse<String> response = send(HttpClient.Version.HTTP_2, HttpRequest.newBuilder(jobs)
                .POST(HttpRequest.BodyPublishers.ofString(
                        "{\"jobType\":\"SIMULATION\",\"payload\":{\"steps\":[{\"action\":\"LOG\",\"message\":\"h2c\"}]}}")));

        assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
        assertThat(new ObjectMapper().readTree(response.body()).path("jobId").asText()).isNotBlank();
    }

    @Test
    void bodyOverTheLimitWithContentLengthIs413Json() {
        Response response = given().contentType(ContentType.JSON).body(bodyOfSize(70 * 1024)).post("/api/jobs");

        assertThat(response.statusCode()).isEqualTo(413);
        assertThat(response.contentType()).startsWith("application/json");
        assertThat(response.jsonPath().getString("errorCode")).isEqualTo("API.PAYLOAD_TOO_LARGE");
        assertThat(response.jsonPath().getString("message")).contains("65536");
    }

    @Test
    void chunkedBodyOverTheLimitIs413Json() throws Exception {
        byte[] body = bodyOfSize(70 * 1024).getBytes(StandardCharsets.UTF_8);
        HttpResponse<String> response = send(HttpClient.Version.HTTP_1_1, HttpRequest.newBuilder(jobs)
                // an InputStream publisher has no known length: the body is sent chunked, without Content-Length
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body))));

        assertThat(response.statusCode()).isEqualTo(413);
        JsonNode error = new ObjectMapper().readTree(response.body());
        assertThat(error.get("errorCode").asText()).isEqualTo("API.PAYLOAD_TOO_LARGE");
    }

    @Test
    void bodyJustUnderTheLimitIsNotRefusedForItsSize() {
        // 60 KiB of message is over the 4096-character message bound, but not over the body limit
        Response response = given().contentType(ContentType.JSON).body(bodyOfSize(60 * 1024)).post("/api/jobs");

        assertThat(response.statusCode()).as(response.asString()).isEqualTo(400);
        assertThat(response.jsonPath().getString("errorCode")).as(response.asString()).isEqualTo("API.INVALID_JOB_REQUEST");
        assertThat(response.jsonPath().getString("message")).contains("payload.steps[0].message must be at most 4096");
    }

    @Test
    void expectContinueIsHonoured() throws Exception {
        // curl sends "Expect: 100-continue" for bodies over 1 KiB and waits for the interim answer
        String body = "{\"jobType\":\"SIMULATION\",\"payload\":{\"steps\":[{\"action\":\"LOG\",\"message\":\""
                + "c".repeat(3000) + "\"}]}}";
        HttpResponse<String> response = send(HttpClient.Version.HTTP_1_1, HttpRequest.newBuilder(jobs)
                .expectContinue(true)
                .POST(HttpRequest.BodyPublishers.ofString(body)));

        assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
    }

    @Test
    void wrongContentTypeIs415() {
        Answers.assertNotJsonRefused("/api/jobs", "hello");
    }

    @Test
    void wrongMethodIs405() {
        Response response = given().delete("/api/jobs");

        assertRefused("DELETE", response, 405, "API.METHOD_NOT_ALLOWED", "method not allowed here; allowed: ");
    }

    @Test
    void nonJsonAcceptIs406() {
        Response response = given().accept(ContentType.XML).get("/api/jobs");

        assertRefused("XML", response, 406, "API.NOT_ACCEPTABLE", "this API only produces application/json");
    }

    /** Sends a JSON {@code request} with {@code java.net.http} speaking {@code version}, as clients outside do. */
    private static HttpResponse<String> send(HttpClient.Version version, HttpRequest.Builder request)
            throws Exception {
        try (HttpClient client = HttpClient.newBuilder().version(version).build()) {
            return client.send(request.header("Content-Type", "application/json").timeout(Duration.ofSeconds(30))
                    .build(), HttpResponse.BodyHandlers.ofString());
        }
    }
}
