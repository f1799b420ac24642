package dev.jobweaver.api.platform.http;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.security.Roles;
import dev.jobweaver.api.testing.SecuredProfile;
import dev.jobweaver.api.testing.TestTokens;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

/** {@code X-Trace-Id} on the secured API: the answers of authentication and authorisation carry it back too. */
@QuarkusTest
@TestProfile(SecuredProfile.class)
@JobWeaverTest(database = "jobweaver_api")
class ClientTraceIdSecuredTest {

    @Test
    void a401CarriesItBack() {
        Response response = given().header(ClientTraceId.HEADER, "req-401").get("/api/jobs");

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.header(ClientTraceId.HEADER)).isEqualTo("req-401");
    }

    @Test
    void a403CarriesItBack() {
        Response response = given().header(ClientTraceId.HEADER, "req-403")
                .header("Authorization", TestTokens.bearer(TestTokens.token("viewer", "t-trace", Roles.VIEWER)))
                .get("/api/tenants/t-trace/limits");

        assertThat(response.statusCode()).as(response.asString()).isEqualTo(403);
        assertThat(response.header(ClientTraceId.HEADER)).isEqualTo("req-403");
    }

    @Test
    void anAllowedCallGetsItBack() {
        Response response = given().header(ClientTraceId.HEADER, "req-200")
                .header("Authorization", TestTokens.bearer(TestTokens.token("viewer", "t-trace", Roles.VIEWER)))
                .get("/api/jobs");

        assertThat(response.statusCode()).as(response.asString()).isEqualTo(200);
        assertThat(response.header(ClientTraceId.HEADER)).isEqualTo("req-200");
    }
}
