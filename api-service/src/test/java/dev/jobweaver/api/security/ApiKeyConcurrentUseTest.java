package dev.jobweaver.api.security;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.Answers;
import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.api.testing.SecuredProfile;
import dev.jobweaver.api.testing.Tenants;
import dev.jobweaver.api.testing.TestTokens;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Requests whose key is not cached yet, many at once: each is answered as its key allows, whether it shared another
 * request's lookup or the database answered its own on another event loop. A request resumed outside its own Vert.x
 * context had no identity there and was answered 500.
 */
@QuarkusTest
@TestProfile(SecuredProfile.class)
@JobWeaverTest(database = "jobweaver_api")
class ApiKeyConcurrentUseTest {

    private static final int REQUESTS = 48;

    @TestHTTPResource("/api/jobs")
    URI jobs;

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private String newKey(String tenant) {
        return Answers.expect(given().header("Authorization", TestTokens.bearer(TestTokens.BOOTSTRAP_ADMIN_KEY))
                .contentType(ContentType.JSON).body("{\"name\":\"burst\",\"roles\":[\"submitter\"]}")
                .post("/api/tenants/" + tenant + "/api-keys"), 201, "a key").getString("key");
    }

    private CompletableFuture<Integer> submit(String key) {
        HttpRequest request = HttpRequest.newBuilder(jobs).timeout(Duration.ofSeconds(30))
                .header("Authorization", TestTokens.bearer(key)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Jobs.VALID)).build();
        return client.sendAsync(request, HttpResponse.BodyHandlers.discarding()).thenApply(HttpResponse::statusCode);
    }

    private static Map<Integer, Integer> byStatus(List<CompletableFuture<Integer>> answers) {
        Map<Integer, Integer> counts = new TreeMap<>();
        answers.forEach(a -> counts.merge(a.join(), 1, Integer::sum));
        return counts;
    }

    @Test
    void manyRequestsWithOneNewKeyAreAllAccepted() {
        String key = newKey(Tenants.fresh("one-key"));
        List<CompletableFuture<Integer>> answers = new ArrayList<>();
        for (int i = 0; i < REQUESTS; i++) {
            answers.add(submit(key));
        }
        assertThat(byStatus(answers)).isEqualTo(Map.of(202, REQUESTS));
    }

    @Test
    void manyNewKeysUsedAtOnceAreAllAccepted() {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < REQUESTS / 2; i++) {
            keys.add(newKey(Tenants.fresh("many-keys")));
        }
        List<CompletableFuture<Integer>> answers = new ArrayList<>();
        keys.forEach(key -> {
            answers.add(submit(key));
            answers.add(submit(key));
        });
        assertThat(byStatus(answers)).isEqualTo(Map.of(202, REQUESTS));
    }
}
