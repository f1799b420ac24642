package dev.jobweaver.api.job;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.Database;
import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Idempotency-Key header: a repeat (same tenant, key and body) gets the first answer and makes no job, another
 * body under the key is a 409, concurrent duplicates make exactly one job, an expired key is free again and cleaned up.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class JobResourceIdempotencyTest {

    @Inject
    IdempotencyKeyCleanup cleanup;

    private static String body(String tenant, String message) {
        return "{\"jobType\":\"SIMULATION\",\"payload\":{\"steps\":[{\"action\":\"LOG\",\"message\":\"" + message
                + "\"}]},\"tenant\":\"" + tenant + "\"}";
    }

    private static String tenant() {
        return "idem-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static Response submit(String key, String body) {
        return given().contentType(ContentType.JSON).header("Idempotency-Key", key).body(body).post("/api/jobs");
    }

    private static int jobsOf(String tenant) throws SQLException {
        return (int) Database.firstLong("SELECT count(*) FROM jobs WHERE tenant = ?", tenant);
    }

    @Test
    void aRepeatGetsTheFirstAnswerAndMakesNoJob() throws Exception {
        String tenant = tenant();
        Response first = submit("order-42", body(tenant, "hi"));
        assertThat(first.statusCode()).isEqualTo(202);

        // the same request, formatted otherwise and with its members in another order
        Response again = submit("order-42", "{ \"tenant\": \"" + tenant + "\", \"payload\": {\"steps\": [{\"message\":"
                + " \"hi\", \"action\": \"LOG\"}]}, \"jobType\": \"SIMULATION\" }");

        assertThat(again.statusCode()).isEqualTo(202);
        assertThat(again.jsonPath().getString("jobId")).isEqualTo(first.jsonPath().getString("jobId"));
        assertThat(again.jsonPath().getString("traceId")).isEqualTo(first.jsonPath().getString("traceId"));
        assertThat(again.header("Location")).isEqualTo(first.header("Location"));
        assertThat(jobsOf(tenant)).isEqualTo(1);
        JsonPath job = Jobs.get(first.jsonPath().getString("jobId"));
        assertThat(job.getString("payload.steps[0].message")).isEqualTo("hi");
        assertThat(job.getString("tenant")).isEqualTo(tenant);
    }

    @Test
    void anotherBodyUnderTheKeyIsAConflict() throws Exception {
        String tenant = tenant();
        String jobId = submit("order-43", body(tenant, "hi")).then().statusCode(202).extract().jsonPath()
                .getString("jobId");

        Response other = submit("order-43", body(tenant, "bye"));

        assertThat(other.statusCode()).isEqualTo(409);
        assertThat(other.jsonPath().getString("errorCode")).isEqualTo("API.IDEMPOTENCY_CONFLICT");
        assertThat(other.jsonPath().getString("message")).contains("Idempotency-Key 'order-43'");
        assertThat(other.jsonPath().getString("jobId")).isEqualTo(jobId);
        assertThat(jobsOf(tenant)).isEqualTo(1);
    }

    @Test
    void keysAreTheTenantsOwn() throws Exception {
        String one = tenant();
        String two = tenant();

        String first = submit("shared-key", body(one, "hi")).then().statusCode(202).extract().jsonPath()
                .getString("jobId");
        String second = submit("shared-key", body(two, "hi")).then().statusCode(202).extract().jsonPath()
                .getString("jobId");

        assertThat(second).isNotEqualTo(first);
        assertThat(jobsOf(one)).isEqualTo(1);
        assertThat(jobsOf(two)).isEqualTo(1);
    }

    @Test
    void concurrentDuplicatesMakeExactlyOneJobAndTheSameAnswer() throws Exception {
        String tenant = tenant();
        String key = "burst-" + UUID.randomUUID();
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + RestAssured.port + "/api/jobs"))
                .header("Content-Type", "application/json").header("Idempotency-Key", key)
                .timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofString(body(tenant, "once"))).build();

        List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            calls.add(client.sendAsync(request, HttpResponse.BodyHandlers.ofString()));
        }
        List<HttpResponse<String>> answers = new ArrayList<>();
        for (CompletableFuture<HttpResponse<String>> call : calls) {
            answers.add(call.get());
        }

        assertThat(answers).allSatisfy(answer -> assertThat(answer.statusCode()).as(answer.body()).isEqualTo(202));
        Set<String> bodies = answers.stream().map(HttpResponse::body).collect(Collectors.toSet());
        assertThat(bodies).as("50 identical answers").hasSize(1);
        Set<String> locations = answers.stream().map(a -> a.headers().firstValue("Location").orElse(""))
                .collect(Collectors.toSet());
        assertThat(locations).hasSize(1);
        assertThat(jobsOf(tenant)).isEqualTo(1);
    }

    @Test
    void anExpiredKeyIsFreeAgainAndCleanedUp() throws Exception {
        String tenant = tenant();
        String first = submit("nightly", body(tenant, "hi")).then().statusCode(202).extract().jsonPath()
                .getString("jobId");
        try (Connection db = Database.connect();
             PreparedStatement age = db.prepareStatement("UPDATE idempotency_keys SET created_at = created_at"
                     + " - interval '25 hours' WHERE tenant = ?")) {
            age.setString(1, tenant);
            assertThat(age.executeUpdate()).isEqualTo(1);
        }

        String second = submit("nightly", body(tenant, "another body, a day later")).then().statusCode(202)
                .extract().jsonPath().getString("jobId");
        assertThat(second).isNotEqualTo(first);
        assertThat(jobsOf(tenant)).isEqualTo(2);

        // the key now names the second job, live: an expired one of another tenant is what the cleanup takes
        String old = tenant();
        submit("stale", body(old, "hi")).then().statusCode(202);
        try (Connection db = Database.connect();
             PreparedStatement age = db.prepareStatement("UPDATE idempotency_keys SET created_at = created_at"
                     + " - interval '25 hours' WHERE tenant = ?")) {
            age.setString(1, old);
            age.executeUpdate();
        }
        assertThat(cleanup.deleteExpired().await().atMost(Duration.ofSeconds(30))).isGreaterThanOrEqualTo(1);
        try (Connection db = Database.connect();
             PreparedStatement keys = db.prepareStatement("SELECT tenant FROM idempotency_keys WHERE tenant IN (?, ?)")) {
            keys.setString(1, tenant);
            keys.setString(2, old);
            List<String> left = new ArrayList<>();
            try (ResultSet rs = keys.executeQuery()) {
                while (rs.next()) {
                    left.add(rs.getString(1));
                }
            }
            assertThat(left).containsExactly(tenant);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "tab\there", "caf\u00e9"})
    void aKeyThatIsNotPrintableAsciiIsRefused(String key) {
        Response response = submit(key, body(tenant(), "hi"));

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.jsonPath().getString("errorCode")).isEqualTo("API.INVALID_PARAMETER");
        assertThat(response.jsonPath().getString("message")).contains("Idempotency-Key must be 1 to 255 printable ASCII");
    }

    @Test
    void aKeyLongerThan255CharactersIsRefused() {
        assertThat(submit("k".repeat(255), body(tenant(), "hi")).statusCode()).isEqualTo(202);

        Response response = submit("k".repeat(256), body(tenant(), "hi"));

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.jsonPath().getString("message")).contains("Idempotency-Key must be 1 to 255", "got 256");
    }
}
