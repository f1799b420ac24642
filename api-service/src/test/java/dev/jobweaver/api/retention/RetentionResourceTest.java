package dev.jobweaver.api.retention;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.Answers;
import dev.jobweaver.api.testing.Database;
import dev.jobweaver.api.testing.Endpoints;
import dev.jobweaver.api.testing.Tenants;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code /api/tenants/{tenant}/retention}: every bad input is a 400 naming the field and stores nothing; a tenant
 * without an override reads the defaults; an override is stored, read back, and a field left out is the default again.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class RetentionResourceTest {

    private static final String PATH = "/api/tenants/{id}/retention";
    private static final String RULE = "API.INVALID_RETENTION_REQUEST";

    static Stream<Arguments> badBodies() {
        return Stream.of(
                Arguments.of("not a duration", "{\"completedAfter\":\"soon\"}", RULE,
                        "completedAfter must be an ISO-8601 duration such as PT1M or P30D, from PT10S to P3650D,"
                                + " got 'soon'"),
                Arguments.of("a period of years", "{\"failedAfter\":\"P1Y\"}", RULE, "failedAfter must be an ISO-8601"),
                Arguments.of("under 10 s", "{\"completedAfter\":\"PT9.999S\"}", RULE,
                        "completedAfter must be at least PT10S, got PT9.999S"),
                Arguments.of("zero", "{\"failedAfter\":\"PT0S\"}", RULE, "failedAfter must be at least PT10S"),
                Arguments.of("negative", "{\"failedAfter\":\"-PT1M\"}", RULE, "failedAfter must be at least PT10S"),
                Arguments.of("beyond ten years", "{\"completedAfter\":\"P3651D\"}", RULE,
                        "completedAfter must be at most P3650D"),
                Arguments.of("beyond a long", "{\"completedAfter\":\"PT99999999999999999999S\"}", RULE,
                        "completedAfter must be an ISO-8601"),
                Arguments.of("a number", "{\"completedAfter\":60}", "API.MALFORMED_JSON", "completedAfter must be"),
                Arguments.of("an object", "{\"failedAfter\":{}}", "API.MALFORMED_JSON", "failedAfter must be"),
                Arguments.of("not an object", "[\"PT1M\"]", "API.MALFORMED_JSON", "must be a JSON object"),
                Arguments.of("bad JSON", "{\"completedAfter\":", "API.MALFORMED_JSON", "not valid JSON"),
                Arguments.of("duplicate key", "{\"failedAfter\":\"PT1M\",\"failedAfter\":\"PT2M\"}",
                        "API.MALFORMED_JSON", "Duplicate field 'failedAfter'"),
                Arguments.of("empty", "", "API.MALFORMED_JSON", "request body is empty"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badBodies")
    void aBadBodyIsRefusedAndStoresNothing(String rule, String body, String errorCode, String messagePart)
            throws Exception {
        Tenants.assertRefusedStoringNothing("tenant_retention", tenant -> put(tenant, body), rule, errorCode,
                messagePart);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.jobweaver.api.testing.Tenants#invalid")
    void aBadTenantIsRefusedByEveryMethod(String tenant) {
        new Endpoints().putJson(PATH, "{\"completedAfter\":\"PT1M\"}").get(PATH)
                .refuse(tenant, 400, RULE, Tenants.BAD_TENANT_MESSAGE);
    }

    @Test
    void aTenantWithoutAnOverrideReadsTheDefaults() {
        String tenant = Tenants.fresh("r");
        Response read = given().get(path(tenant));
        assertThat(read.statusCode()).as(read.asString()).isEqualTo(200);
        assertThat(read.jsonPath().getString("tenant")).isEqualTo(tenant);
        assertThat(read.jsonPath().getString("completedAfter")).isEqualTo("P7D");
        assertThat(read.jsonPath().getString("failedAfter")).isEqualTo("P30D");
        assertThat(read.jsonPath().getBoolean("completedAfterDefault")).isTrue();
        assertThat(read.jsonPath().getBoolean("failedAfterDefault")).isTrue();
        assertThat(read.jsonPath().getString("updatedAt")).isNull();
    }

    @Test
    void anOverrideIsStoredReadBackAndAFieldLeftOutIsTheDefaultAgain() throws Exception {
        String tenant = Tenants.fresh("r");
        Instant before = Instant.now().minusSeconds(1);
        Response set = put(tenant, "{\"completedAfter\":\"PT1M\",\"failedAfter\":\"PT36H\",\"ignored\":1}");
        assertThat(set.statusCode()).as(set.asString()).isEqualTo(200);
        assertThat(set.jsonPath().getString("completedAfter")).isEqualTo("PT1M");
        assertThat(set.jsonPath().getString("failedAfter")).isEqualTo("PT36H");
        assertThat(set.jsonPath().getBoolean("completedAfterDefault")).isFalse();
        assertThat(set.jsonPath().getBoolean("failedAfterDefault")).isFalse();
        Instant updatedAt = Instant.parse(set.jsonPath().getString("updatedAt"));
        assertThat(updatedAt).isAfter(before);
        assertThat(Database.firstLong("SELECT completed_after_ms FROM tenant_retention WHERE tenant = ?", tenant))
                .isEqualTo(60_000);

        Response read = given().get(path(tenant));
        assertThat(read.statusCode()).isEqualTo(200);
        assertThat(read.jsonPath().getString("completedAfter")).isEqualTo("PT1M");
        assertThat(read.jsonPath().getString("failedAfter")).isEqualTo("PT36H");
        assertThat(Instant.parse(read.jsonPath().getString("updatedAt"))).isEqualTo(updatedAt);

        // the bounds are accepted; a field left out is the default again
        Response changed = put(tenant, "{\"failedAfter\":\"PT10S\"}");
        assertThat(changed.statusCode()).as(changed.asString()).isEqualTo(200);
        Response reread = given().get(path(tenant));
        assertThat(reread.jsonPath().getString("completedAfter")).isEqualTo("P7D");
        assertThat(reread.jsonPath().getBoolean("completedAfterDefault")).isTrue();
        assertThat(reread.jsonPath().getString("failedAfter")).isEqualTo("PT10S");
        assertThat(put(tenant, "{\"completedAfter\":\"P3650D\",\"failedAfter\":null}").jsonPath()
                .getString("completedAfter")).isEqualTo("P3650D");
        Response reset = put(tenant, "{}");
        assertThat(reset.statusCode()).isEqualTo(200);
        assertThat(reset.jsonPath().getBoolean("completedAfterDefault")).isTrue();
        assertThat(reset.jsonPath().getBoolean("failedAfterDefault")).isTrue();
        assertThat(Database.firstLong("SELECT count(*) FROM tenant_retention WHERE tenant = ?", tenant))
                .as("one row per tenant").isEqualTo(1);
    }

    private static String path(String tenant) {
        return PATH.replace("{id}", tenant);
    }

    private static Response put(String tenant, String body) {
        return Answers.putJson(path(tenant), body);
    }
}
