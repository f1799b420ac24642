package dev.jobweaver.api.retention;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.security.Roles;
import dev.jobweaver.api.testing.SecuredProfile;
import dev.jobweaver.api.testing.Tenants;
import dev.jobweaver.api.testing.TestTokens;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;

/**
 * A tenant's retention is tenant management: without credentials 401; every role below admin 403, for its own tenant
 * too; an admin of one tenant sets and reads another's.
 */
@QuarkusTest
@TestProfile(SecuredProfile.class)
@JobWeaverTest(database = "jobweaver_api")
class RetentionSecurityTest {

    private static final String BODY = "{\"completedAfter\":\"PT1M\"}";

    @Test
    void withoutCredentialsTheAnswerIs401() {
        String tenant = Tenants.fresh("s");
        assertThat(given().get(path(tenant)).statusCode()).isEqualTo(401);
        assertThat(given().contentType(ContentType.JSON).body(BODY).put(path(tenant)).statusCode()).isEqualTo(401);
    }

    @Test
    void everyRoleBelowAdminIsRefusedEvenForItsOwnTenant() {
        String tenant = Tenants.fresh("s");
        for (String role : new String[] {Roles.VIEWER, Roles.SUBMITTER, Roles.OPERATOR}) {
            Response read = as(role, tenant).get(path(tenant));
            assertThat(read.statusCode()).as(role + ": " + read.asString()).isEqualTo(403);
            assertThat(read.jsonPath().getString("errorCode")).isEqualTo("API.FORBIDDEN");
            Response set = as(role, tenant).contentType(ContentType.JSON).body(BODY).put(path(tenant));
            assertThat(set.statusCode()).as(role + ": " + set.asString()).isEqualTo(403);
        }
        Response read = as(Roles.ADMIN, "another").get(path(tenant));
        assertThat(read.jsonPath().getBoolean("completedAfterDefault")).as("nothing was stored").isTrue();
    }

    @Test
    void anAdminSetsAndReadsAnyTenantsRetention() {
        String tenant = Tenants.fresh("s");
        Response set = as(Roles.ADMIN, "another").contentType(ContentType.JSON).body(BODY).put(path(tenant));
        assertThat(set.statusCode()).as(set.asString()).isEqualTo(200);
        Response read = as(Roles.ADMIN, "another").get(path(tenant));
        assertThat(read.statusCode()).isEqualTo(200);
        assertThat(read.jsonPath().getString("completedAfter")).isEqualTo("PT1M");
    }

    private static RequestSpecification as(String role, String tenant) {
        return given().header("Authorization", TestTokens.bearer(TestTokens.token(role + "-caller", tenant, role)));
    }

    private static String path(String tenant) {
        return "/api/tenants/" + tenant + "/retention";
    }
}
