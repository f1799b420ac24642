package dev.jobweaver.api.job;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.SecuredProfile;
import dev.jobweaver.api.testing.TestTokens;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The per-tenant submission rate limit through {@code POST /api/jobs}: {@link SecuredProfile}'s tenant
 * {@value SecuredProfile#RATE_LIMITED_TENANT} may submit 2 jobs at once and then one every 10 s; its third submission
 * is a 429 with {@code Retry-After}, while another tenant is still accepted; an idempotent replay takes no token.
 */
@QuarkusTest
@TestProfile(SecuredProfile.class)
@JobWeaverTest(database = "jobweaver_api")
class JobSubmissionRateLimitTest {

    private static final String ADMIN = TestTokens.bearer(TestTokens.BOOTSTRAP_ADMIN_KEY);

    @Test
    void theThirdSubmissionInARowIsRefusedWhileAnotherTenantIsAccepted() {
        String other = "rl-other-" + UUID.randomUUID().toString().substring(0, 8);
        // warm the submission path first: the rate-limited tenant's submissions then follow each other closely
        assertThat(submit(other, null).statusCode()).isEqualTo(202);

        String key = "rl-" + UUID.randomUUID();
        Response first = submit(SecuredProfile.RATE_LIMITED_TENANT, key);
        assertThat(first.statusCode()).as(first.asString()).isEqualTo(202);
        // replays answer the first job and give their token back
        for (int i = 0; i < 3; i++) {
            Response replay = submit(SecuredProfile.RATE_LIMITED_TENANT, key);
            assertThat(replay.statusCode()).as(replay.asString()).isEqualTo(202);
            assertThat(replay.jsonPath().getString("jobId")).isEqualTo(first.jsonPath().getString("jobId"));
        }
        Response second = submit(SecuredProfile.RATE_LIMITED_TENANT, null);
        assertThat(second.statusCode()).as(second.asString()).isEqualTo(202);

        Response third = submit(SecuredProfile.RATE_LIMITED_TENANT, null);
        assertThat(third.statusCode()).as(third.asString()).isEqualTo(429);
        assertThat(third.jsonPath().getString("errorCode")).isEqualTo("API.RATE_LIMITED");
        assertThat(third.jsonPath().getInt("status")).isEqualTo(429);
        assertThat(third.jsonPath().getString("message"))
                .contains("tenant '" + SecuredProfile.RATE_LIMITED_TENANT + "'").contains("0.1 jobs/s (burst 2)");
        assertThat(third.header("Retry-After")).matches("[0-9]+");
        assertThat(Integer.parseInt(third.header("Retry-After"))).isBetween(1, 10);

        Response elsewhere = submit(other, null);
        assertThat(elsewhere.statusCode()).as(elsewhere.asString()).isEqualTo(202);
    }

    private static Response submit(String tenant, String idempotencyKey) {
        var request = given().header("Authorization", ADMIN).contentType(ContentType.JSON);
        if (idempotencyKey != null) {
            request = request.header("Idempotency-Key", idempotencyKey);
        }
        return request.body("{\"jobType\":\"SIMULATION\",\"payload\":{\"steps\":[{\"action\":\"LOG\",\"message\":"
                + "\"hi\"}]},\"tenant\":\"" + tenant + "\"}").post("/api/jobs");
    }
}
