package dev.jobweaver.api.platform.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.testing.PerClassSettings;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Back-pressure on large submissions: with a budget that holds one 60 KB body ({@link PerClassSettings#ADMISSION_BUDGET}), concurrent ones are answered 202 or
 * 503 {@code API.OVERLOADED} with {@code Retry-After}, never 500, and the budget is whole again once they are answered.
 */
@QuarkusTest
@TestProfile(PerClassSettings.class)
@JobWeaverTest(database = "jobweaver_api")
class HttpEdgeRoutesAdmissionTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TestHTTPResource("/api/jobs")
    URI jobs;

    /** A valid job of about 60 KB: 15 LOG steps of 4,000 characters. */
    private static String largeJob() {
        StringBuilder steps = new StringBuilder();
        for (int i = 0; i < 15; i++) {
            steps.append(i == 0 ? "" : ",").append("{\"action\":\"LOG\",\"message\":\"").append("x".repeat(4000))
                    .append("\"}");
        }
        return "{\"jobType\":\"SIMULATION\",\"payload\":{\"steps\":[" + steps + "]},\"maxRetryCount\":0}";
    }

    private HttpRequest post(String body) {
        return HttpRequest.newBuilder(jobs).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).timeout(Duration.ofSeconds(30)).build();
    }

    @Test
    void concurrentLargeSubmissionsOverTheBudgetAre503OverloadedAndTheRestAccepted() throws Exception {
        String body = largeJob();
        List<HttpResponse<String>> responses = new ArrayList<>();
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            List<CompletableFuture<HttpResponse<String>>> sent = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                sent.add(client.sendAsync(post(body), HttpResponse.BodyHandlers.ofString()));
            }
            for (CompletableFuture<HttpResponse<String>> response : sent) {
                responses.add(response.get());
            }

            List<HttpResponse<String>> overloaded = responses.stream().filter(r -> r.statusCode() == 503).toList();
            assertThat(responses).allSatisfy(r -> assertThat(r.statusCode()).as(r.body()).isIn(202, 503));
            assertThat(responses).anySatisfy(r -> assertThat(r.statusCode()).isEqualTo(202));
            assertThat(overloaded).as("16 bodies of 60 KB at once against a budget of 70,000 bytes").isNotEmpty();
            for (HttpResponse<String> refused : overloaded) {
                JsonNode error = JSON.readTree(refused.body());
                assertThat(error.path("errorCode").asText()).isEqualTo("API.OVERLOADED");
                assertThat(error.path("message").asText()).contains("limit is " + PerClassSettings.ADMISSION_BUDGET).contains("nothing was stored");
                assertThat(refused.headers().firstValue("Retry-After")).contains("1");
            }

            // Every charge was given back: one large submission on its own is accepted.
            HttpResponse<String> alone = client.send(post(body), HttpResponse.BodyHandlers.ofString());
            assertThat(alone.statusCode()).as(alone.body()).isEqualTo(202);
        }
    }
}
