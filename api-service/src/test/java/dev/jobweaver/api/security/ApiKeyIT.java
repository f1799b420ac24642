package dev.jobweaver.api.security;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.Answers;
import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.api.testing.NativeExecutable;
import dev.jobweaver.api.testing.NativeProfile;
import dev.jobweaver.api.testing.Tenants;
import dev.jobweaver.api.testing.TestTokens;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.Test;

/**
 * Credentials in the native executable: the bootstrap admin key creates, lists and revokes an API key, which works
 * until revoked; a JWT signed by the configured issuer's key is accepted with its roles and tenant.
 */
class ApiKeyIT extends NativeExecutable {

    @Test
    void anApiKeyIsCreatedUsedListedAndRevoked() {
        String tenant = Tenants.fresh("native");
        String keys = "/api/tenants/" + tenant + "/api-keys";
        JsonPath created = Answers.expect(NativeProfile.asAdmin().contentType(ContentType.JSON)
                .body("{\"name\":\"ci\",\"roles\":[\"submitter\"]}").post(keys), 201, "a key");
        String id = created.getString("id");
        String key = created.getString("key");
        assertThat(key).startsWith("jw_");

        String bearer = TestTokens.bearer(key);
        JsonPath accepted = Answers.expect(given().header("Authorization", bearer)
                .contentType(ContentType.JSON).body(Jobs.VALID).post("/api/jobs"), 202, "a job with the key");
        assertThat(accepted.getString("jobId")).isNotBlank();
        JsonPath listed = Answers.expect(NativeProfile.asAdmin().get(keys), 200, "the keys");
        assertThat(listed.getList("apiKeys.id", String.class)).containsExactly(id);
        assertThat(listed.prettify()).doesNotContain(key);

        NativeProfile.asAdmin().delete(keys + "/" + id).then().statusCode(204);
        Answers.assertRefused("a revoked key", given().header("Authorization", bearer)
                .get("/api/jobs"), 401, "API.UNAUTHENTICATED", "");
    }

    @Test
    void aJwtOfTheIssuerIsAcceptedWithItsRolesAndTenant() {
        String tenant = Tenants.fresh("jwt");
        JsonPath page = Answers.expect(NativeProfile.withToken(tenant, Roles.VIEWER).get("/api/jobs"), 200,
                "a viewer's list");
        assertThat(page.getInt("totalElements")).isZero();

        Answers.assertRefused("a viewer submitting", NativeProfile.withToken(tenant, Roles.VIEWER)
                .contentType(ContentType.JSON).body(Jobs.VALID).post("/api/jobs"), 403, "API.FORBIDDEN", "");
        JsonPath accepted = Answers.expect(NativeProfile.withToken(tenant, Roles.SUBMITTER)
                .contentType(ContentType.JSON).body(Jobs.VALID).post("/api/jobs"), 202, "a submitter's job");
        assertThat(Answers.expect(NativeProfile.withToken(tenant, Roles.VIEWER)
                .get("/api/jobs/" + accepted.getString("jobId")), 200, "the job").getString("tenant"))
                .isEqualTo(tenant);
    }
}
