package dev.jobweaver.api.security;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.security.AccessTable.Access;
import dev.jobweaver.api.testing.SecuredProfile;
import dev.jobweaver.api.testing.TestTokens;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every endpoint of {@link AccessTable} against the secured API: without credentials and with a token that is not one,
 * 401 {@code API.UNAUTHENTICATED} (a public endpoint answers as it would anyone); with a token of each role, 403
 * {@code API.FORBIDDEN} below the endpoint's lowest role and past authorisation at or above it. The calls carry a
 * random id or an empty body, so an allowed caller gets the resource's own 404 or 400: no job is made or waited for.
 */
@QuarkusTest
@TestProfile(SecuredProfile.class)
@JobWeaverTest(database = "jobweaver_api")
class RoleAccessTest {

    private static final String TENANT = "t-roles";

    static Stream<Access> endpoints() {
        return AccessTable.EXPECTED.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("endpoints")
    void withoutCredentialsOnlyAPublicEndpointIsReached(Access access) {
        assertUnauthenticatedCaller(access, "no credentials", call(access, given()));
        assertUnauthenticatedCaller(access, "a bearer that is no token",
                call(access, given().header("Authorization", "Bearer not-a-token")));
        assertUnauthenticatedCaller(access, "a token signed by another key", call(access, given().header(
                "Authorization", TestTokens.bearer(TestTokens.claims("intruder", TENANT, Roles.ADMIN)
                        .sign(TestTokens.key("security/other-private.pem"))))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("endpoints")
    void eachRoleIsRefusedBelowTheLowestAndReachesItAtOrAbove(Access access) {
        for (String role : Roles.ORDERED) {
            Response response = call(access, given().header("Authorization",
                    TestTokens.bearer(TestTokens.token(role + "-caller", TENANT, role))));
            String what = access.endpoint() + " as " + role + ": " + response.asString();
            if (AccessTable.PUBLIC.equals(access.role())) {
                // the hook's own 401 (its signature) is the resource answering, not the API's authentication
                assertThat(errorCode(response)).as(what).isNotIn("API.UNAUTHENTICATED", "API.FORBIDDEN");
            } else if (access.allows(role)) {
                assertThat(response.statusCode()).as(what).isNotIn(401, 403);
            } else {
                assertThat(response.statusCode()).as(what).isEqualTo(403);
                assertThat(response.jsonPath().getString("errorCode")).as(what).isEqualTo("API.FORBIDDEN");
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"/q/health", "/q/health/live", "/q/health/ready", "/q/metrics", "/q/openapi"})
    void healthMetricsAndTheOpenApiDocumentNeedNoCredentials(String path) {
        Response response = given().when().get(path);
        assertThat(response.statusCode()).as(path + ": " + response.asString()).isNotIn(401, 403, 404);
    }

    private static void assertUnauthenticatedCaller(Access access, String how, Response response) {
        String what = access.endpoint() + " with " + how + ": " + response.asString();
        if (AccessTable.PUBLIC.equals(access.role())) {
            // reached: whatever the resource answers, it is not the API's own authentication or role refusal
            assertThat(errorCode(response)).as(what).isNotIn("API.UNAUTHENTICATED", "API.FORBIDDEN");
        } else {
            assertThat(response.statusCode()).as(what).isEqualTo(401);
            assertThat(response.jsonPath().getString("errorCode")).as(what).isEqualTo("API.UNAUTHENTICATED");
        }
    }

    /** The answer's error code; null when it has no JSON body. */
    private static String errorCode(Response response) {
        String body = response.asString();
        return body == null || !body.startsWith("{") ? null : response.jsonPath().getString("errorCode");
    }

    /** {@code access}'s endpoint called with a random id (and {@link #TENANT}), and an empty JSON object to write. */
    static Response call(Access access, RequestSpecification request) {
        String path = access.path();
        for (Map.Entry<String, String> parameter : Map.of("{id}", UUID.randomUUID().toString(),
                "{jobId}", UUID.randomUUID().toString(), "{runId}", UUID.randomUUID().toString(),
                "{tenant}", TENANT).entrySet()) {
            path = path.replace(parameter.getKey(), parameter.getValue());
        }
        if (access.method().equals("POST") || access.method().equals("PUT")) {
            request = request.contentType(ContentType.JSON).body("{}");
        }
        return request.when().request(access.method(), path);
    }
}
