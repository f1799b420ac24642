package dev.jobweaver.api.security;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.SecuredProfile;
import dev.jobweaver.api.testing.TestTokens;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/**
 * Bearer JWTs on the secured API (an admin-only endpoint, the tenants' API keys): a valid admin token passes; an
 * expired one, one signed with another key, an unsigned one ({@code alg: none}) and one of another issuer are 401s in
 * the API's error format that never repeat the token; a valid token of a lower role is a 403.
 */
@QuarkusTest
@TestProfile(SecuredProfile.class)
@JobWeaverTest(database = "jobweaver_api")
class JwtAuthenticationTest {

    private static final String PATH = "/api/tenants/jwt-test/api-keys";

    @Test
    void aValidAdminTokenPasses() {
        Response response = get(TestTokens.token("alice", "acme", "admin"));
        assertThat(response.statusCode()).as(response.asString()).isEqualTo(200);
    }

    @Test
    void aValidTokenOfALowerRoleIsForbidden() {
        Response response = get(TestTokens.token("bob", "jwt-test", "operator"));
        ApiKeyResourceTest.assertError("operator", response, 403, "API.FORBIDDEN", "role");
    }

    @Test
    void anExpiredTokenIsRefused() {
        Instant now = Instant.now();
        String token = TestTokens.claims("alice", "acme", "admin").issuedAt(now.minusSeconds(7200))
                .expiresAt(now.minusSeconds(3600)).sign(TestTokens.key("security/jwt-private.pem"));
        assertRefused("expired", token);
    }

    @Test
    void aTokenSignedWithAnotherKeyIsRefused() {
        String token = TestTokens.claims("alice", "acme", "admin").sign(TestTokens.key("security/other-private.pem"));
        assertRefused("other key", token);
    }

    @Test
    void anUnsignedTokenIsRefused() {
        Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
        long now = Instant.now().getEpochSecond();
        String header = base64.encodeToString("{\"alg\":\"none\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));
        String claims = base64.encodeToString(("{\"iss\":\"" + TestTokens.ISSUER + "\",\"sub\":\"mallory\","
                + "\"upn\":\"mallory\",\"groups\":[\"admin\"],\"iat\":" + now + ",\"exp\":" + (now + 3600) + "}")
                .getBytes(StandardCharsets.UTF_8));
        assertRefused("alg none", header + "." + claims + ".");
    }

    @Test
    void aTokenOfAnotherIssuerIsRefused() {
        String token = TestTokens.claims("alice", "acme", "admin").issuer("https://evil.example/issuer")
                .sign(TestTokens.key("security/jwt-private.pem"));
        assertRefused("wrong issuer", token);
    }

    @Test
    void garbageIsRefused() {
        assertRefused("garbage", "not.a.jwt");
    }

    @Test
    void noCredentialsIsA401WithAChallenge() {
        Response response = given().get(PATH);
        ApiKeyResourceTest.assertError("anonymous", response, 401, "API.UNAUTHENTICATED", "credentials required");
        assertThat(response.header("WWW-Authenticate")).startsWith("Bearer");
    }

    private static Response get(String token) {
        return given().header("Authorization", TestTokens.bearer(token)).get(PATH);
    }

    private static void assertRefused(String rule, String token) {
        Response response = get(token);
        ApiKeyResourceTest.assertError(rule, response, 401, "API.UNAUTHENTICATED", "the credentials are not valid");
        assertThat(response.header("WWW-Authenticate")).as(rule).startsWith("Bearer");
        assertThat(response.asString()).as(rule).doesNotContain(token);
    }
}
