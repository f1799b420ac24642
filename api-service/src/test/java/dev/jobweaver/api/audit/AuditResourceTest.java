package dev.jobweaver.api.audit;

import static dev.jobweaver.api.testing.Answers.assertRefused;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.ListParameters;
import dev.jobweaver.api.testing.SecuredProfile;
import dev.jobweaver.api.testing.TestTokens;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The audit log with credentials required: every POST, PUT, PATCH or DELETE of an operator or admin endpoint is
 * recorded with who called, the path template, the object, the tenant and the status, whether it was done, refused
 * (401, 403) or a client error; GETs and lower endpoints are not. {@code GET /api/audit} filters and pages it, for
 * admins only. The endpoints acted on are {@link AuditProbeResource}'s.
 */
@QuarkusTest
@TestProfile(SecuredProfile.class)
@JobWeaverTest(database = "jobweaver_api")
class AuditResourceTest {

    private static final String POKE = "/api/audit-probe/tenants/{tenant}/things/{id}/poke";
    private static final String THING = "/api/audit-probe/tenants/{tenant}/things/{id}";
    private static final String READER = TestTokens.token("audit-reader", "ops", "admin");

    @Test
    void anAdminActionIsRecordedWithItsActorRoleEndpointObjectAndStatus() {
        String admin = actor("admin");
        String object = UUID.randomUUID().toString();
        String traceId = UUID.randomUUID().toString().replace("-", "");
        Instant before = Instant.now();
        Response poked = as(admin, "ops", "admin").header("traceparent", "00-" + traceId + "-00f067aa0ba902b7-01")
                .post("/api/audit-probe/tenants/acme/things/" + object + "/poke");
        assertThat(poked.statusCode()).as(poked.asString()).isEqualTo(200);

        List<Map<String, Object>> entries = entries("actor", admin);
        assertThat(entries).hasSize(1);
        Map<String, Object> entry = entries.get(0);
        assertThat(entry).containsEntry("actor", admin).containsEntry("actorTenant", "ops")
                .containsEntry("actorRole", "admin").containsEntry("method", "POST").containsEntry("path", POKE)
                .containsEntry("action", "POST " + POKE).containsEntry("objectId", object)
                .containsEntry("tenant", "acme").containsEntry("status", 200).containsEntry("traceId", traceId);
        assertThat(Instant.parse((String) entry.get("at"))).isAfterOrEqualTo(before.minusMillis(1))
                .isBeforeOrEqualTo(Instant.now());
        assertThat(UUID.fromString((String) entry.get("id"))).isNotNull();
    }

    @Test
    void aCreationIsRecordedWithTheObjectItsLocationNames() {
        String admin = actor("admin");
        Response created = postAsAdmin(admin, "/api/audit-probe/tenants/acme/things", 201);
        assertThat(entries("actor", admin)).singleElement().satisfies(entry -> assertThat(entry)
                .containsEntry("path", "/api/audit-probe/tenants/{tenant}/things")
                .containsEntry("objectId", created.jsonPath().getString("id")).containsEntry("tenant", "acme")
                .containsEntry("status", 201));
    }

    @Test
    void anApiKeysCreationAndRevocationAreRecordedWithoutTheKey() {
        String tenant = "keys-" + UUID.randomUUID().toString().substring(0, 8);
        Response created = given().header("Authorization", "Bearer " + TestTokens.BOOTSTRAP_ADMIN_KEY)
                .contentType("application/json").body("{\"name\":\"ci\",\"roles\":[\"submitter\"]}")
                .post("/api/tenants/" + tenant + "/api-keys");
        assertThat(created.statusCode()).as(created.asString()).isEqualTo(201);
        String id = created.jsonPath().getString("id");
        String key = created.jsonPath().getString("key");
        assertThat(given().header("Authorization", "Bearer " + TestTokens.BOOTSTRAP_ADMIN_KEY)
                .delete("/api/tenants/" + tenant + "/api-keys/" + id).statusCode()).isEqualTo(204);

        Response page = list(Map.of("tenant", tenant));
        assertThat(page.asString()).doesNotContain(key).doesNotContain(TestTokens.BOOTSTRAP_ADMIN_KEY);
        List<Map<String, Object>> entries = page.jsonPath().getList("entries");
        assertThat(entries).extracting(e -> e.get("action") + " " + e.get("objectId") + " " + e.get("status"))
                .containsExactly("DELETE /api/tenants/{tenant}/api-keys/{id} " + id + " 204",
                        "POST /api/tenants/{tenant}/api-keys " + id + " 201");
        assertThat(entries).allSatisfy(entry -> assertThat(entry).containsEntry("actorRole", "admin")
                .containsEntry("tenant", tenant));
        assertThat((String) entries.get(0).get("actor")).isNotBlank().isNotEqualTo("anonymous");
    }

    @Test
    void aRefusedActionIsRecordedWithItsStatus() {
        String viewer = actor("viewer");
        String object = UUID.randomUUID().toString();
        Response refused = as(viewer, "acme", "viewer").post("/api/audit-probe/tenants/acme/things/" + object
                + "/poke");
        assertThat(refused.statusCode()).as(refused.asString()).isEqualTo(403);
        assertThat(refused.jsonPath().getString("errorCode")).isEqualTo("API.FORBIDDEN");

        String operator = actor("operator");
        assertThat(as(operator, "acme", "operator").post("/api/audit-probe/tenants/acme/things/" + object
                + "/poke").statusCode()).isEqualTo(403);
        assertThat(as(operator, "acme", "operator").delete("/api/audit-probe/tenants/acme/things/" + object)
                .statusCode()).as("operator is enough to delete").isEqualTo(204);

        assertThat(entries("actor", viewer)).singleElement().satisfies(entry -> assertThat(entry)
                .containsEntry("actorRole", "viewer").containsEntry("actorTenant", "acme")
                .containsEntry("path", POKE).containsEntry("objectId", object).containsEntry("status", 403));
        assertThat(entries("actor", operator)).extracting(entry -> entry.get("method") + " " + entry.get("status"))
                .containsExactly("DELETE 204", "POST 403");
    }

    @Test
    void theTenantOfAnActionOnAPathWithoutOneIsTheCallersUnlessItSeesEveryTenant() {
        String operator = actor("operator");
        String admin = actor("admin");
        assertThat(as(operator, "acme", "operator").delete("/api/audit-probe/items/i1").statusCode()).isEqualTo(204);
        assertThat(as(admin, "ops", "admin").delete("/api/audit-probe/items/i2").statusCode()).isEqualTo(204);
        assertThat(entries("actor", operator)).singleElement().satisfies(entry -> assertThat(entry)
                .containsEntry("path", "/api/audit-probe/items/{id}").containsEntry("objectId", "i1")
                .containsEntry("tenant", "acme"));
        assertThat(entries("actor", admin)).singleElement().satisfies(entry -> assertThat(entry)
                .containsEntry("objectId", "i2").containsEntry("tenant", null).containsEntry("actorTenant", "ops"));
    }

    @Test
    void anUnauthenticatedActionIsRecordedAsAnonymous() {
        String object = UUID.randomUUID().toString();
        Response none = given().post("/api/audit-probe/tenants/acme/things/" + object + "/poke");
        assertThat(none.statusCode()).as(none.asString()).isEqualTo(401);
        String forged = TestTokens.claims("mallory", "acme", "admin")
                .sign(TestTokens.key("security/other-private.pem"));
        assertThat(given().header("Authorization", TestTokens.bearer(forged))
                .delete("/api/audit-probe/tenants/acme/things/" + object).statusCode()).isEqualTo(401);

        List<Map<String, Object>> entries = entries("actor", "anonymous", "size", "100");
        assertThat(entries).filteredOn(entry -> object.equals(entry.get("objectId")))
                .extracting(entry -> entry.get("method") + " " + entry.get("status") + " " + entry.get("actorRole"))
                .containsExactly("DELETE 401 null", "POST 401 null");
    }

    @Test
    void aClientErrorIsRecorded() {
        String admin = actor("admin");
        postAsAdmin(admin, "/api/audit-probe/tenants/acme/things/bad/poke", 400);
        assertThat(entries("actor", admin)).singleElement().satisfies(entry -> assertThat(entry)
                .containsEntry("objectId", "bad").containsEntry("status", 400));
    }

    @Test
    void readsLowerEndpointsAndTheLogItselfAreNotRecorded() {
        String admin = actor("admin");
        String object = UUID.randomUUID().toString();
        String base = "/api/audit-probe/tenants/acme/things/" + object;
        assertThat(as(admin, "ops", "admin").get(base).statusCode()).isEqualTo(200);
        assertThat(as(admin, "ops", "admin").put(base + "/viewed").statusCode()).isEqualTo(200);
        assertThat(as(admin, "ops", "admin").post(base + "/ping").statusCode()).isEqualTo(200);
        assertThat(as(admin, "ops", "admin").get("/api/audit").statusCode()).isEqualTo(200);
        assertThat(entries("actor", admin)).isEmpty();

        assertThat(as(admin, "ops", "admin").delete(base).statusCode()).isEqualTo(204);
        assertThat(entries("actor", admin)).singleElement().satisfies(entry -> assertThat(entry)
                .containsEntry("method", "DELETE").containsEntry("path", THING).containsEntry("status", 204));
    }

    @Test
    void theLogIsFilteredAndPagedNewestFirst() {
        String admin = actor("admin");
        String own = "ops-" + UUID.randomUUID().toString().substring(0, 8);
        String first = "t1-" + UUID.randomUUID().toString().substring(0, 8);
        String second = "t2-" + UUID.randomUUID().toString().substring(0, 8);
        for (int i = 0; i < 3; i++) {
            assertThat(as(admin, own, "admin").post("/api/audit-probe/tenants/" + first + "/things/p" + i + "/poke")
                    .statusCode()).isEqualTo(200);
        }
        Instant middle = Instant.now();
        for (int i = 0; i < 2; i++) {
            assertThat(as(admin, own, "admin").delete("/api/audit-probe/tenants/" + second + "/things/d" + i)
                    .statusCode()).isEqualTo(204);
        }

        assertThat(entries("actor", admin)).extracting(entry -> entry.get("objectId"))
                .containsExactly("d1", "d0", "p2", "p1", "p0");
        Response page = list(Map.of("actor", admin, "size", "2", "page", "2"));
        assertThat(page.jsonPath().getInt("page")).isEqualTo(2);
        assertThat(page.jsonPath().getInt("size")).isEqualTo(2);
        assertThat(page.jsonPath().getLong("totalElements")).isEqualTo(5);
        assertThat(page.jsonPath().getInt("totalPages")).isEqualTo(3);
        assertThat(page.jsonPath().getList("entries.objectId")).containsExactly("p0");
        assertThat(list(Map.of("actor", admin, "size", "2")).jsonPath().getList("entries.objectId"))
                .containsExactly("d1", "d0");

        assertThat(entries("actor", admin, "action", "DELETE")).hasSize(2);
        assertThat(entries("actor", admin, "action", "POST " + POKE)).hasSize(3);
        assertThat(entries("actor", admin, "action", THING)).extracting(e -> e.get("objectId"))
                .containsExactly("d1", "d0");
        assertThat(entries("actor", admin, "action", "PUT " + THING)).isEmpty();
        assertThat(entries("tenant", second)).extracting(e -> e.get("objectId")).containsExactly("d1", "d0");
        assertThat(entries("tenant", own)).as("the actor's own tenant").hasSize(5);
        assertThat(entries("actor", admin, "since", middle.toString())).extracting(e -> e.get("objectId"))
                .containsExactly("d1", "d0");
        assertThat(entries("actor", admin, "until", middle.toString())).extracting(e -> e.get("objectId"))
                .containsExactly("p2", "p1", "p0");
        assertThat(entries("actor", admin, "since", middle.minusSeconds(3600).toString(), "until",
                middle.toString(), "tenant", first, "action", "POST")).hasSize(3);
        assertThat(entries("actor", "nobody-" + UUID.randomUUID())).isEmpty();
    }

    static Stream<Arguments> badParameters() {
        return Stream.concat(ListParameters.badPagingOrTenant(), Stream.of(
                Arguments.of("since", "yesterday", "query parameter since must be an ISO-8601 instant"),
                Arguments.of("until", "2030-01-01", "query parameter until must be an ISO-8601 instant"),
                Arguments.of("action", "GET", "query parameter action must be a method"),
                Arguments.of("action", "POST api/jobs", "query parameter action must be a method"),
                Arguments.of("action", "poke", "query parameter action must be a method"),
                Arguments.of("actor", "x".repeat(201), "query parameter actor must be 1 to 200 characters"),
                Arguments.of("actor", "   ", "query parameter actor must be 1 to 200 characters")));
    }

    @ParameterizedTest(name = "{0}={1}")
    @MethodSource("badParameters")
    void aBadParameterIsA400NamingIt(String name, String value, String message) {
        assertRefused(name + "=" + value, list(Map.of(name, value)), 400, "API.INVALID_PARAMETER", message);
    }

    @Test
    void sinceMustBeBeforeUntil() {
        Response response = list(Map.of("since", "2030-01-01T00:00:00Z", "until", "2030-01-01T00:00:00Z"));
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.jsonPath().getString("message")).contains("since must be before until");
    }

    @Test
    void onlyAnAdminReadsTheLog() {
        for (String role : List.of("viewer", "submitter", "operator")) {
            Response refused = as(actor(role), "acme", role).get("/api/audit");
            assertThat(refused.statusCode()).as(role).isEqualTo(403);
            assertThat(refused.jsonPath().getString("errorCode")).isEqualTo("API.FORBIDDEN");
        }
        assertThat(given().get("/api/audit").statusCode()).isEqualTo(401);
        Response page = given().header("Authorization", "Bearer " + READER).get("/api/audit");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.jsonPath().getInt("size")).as("the default size").isEqualTo(50);
        assertThat(page.jsonPath().getInt("page")).isZero();
    }

    @Test
    void theWriteFailureCounterIsExportedForItsAlert() {
        assertThat(given().get("/q/metrics").then().statusCode(200).extract().asString())
                .containsPattern("(?m)^jobweaver_audit_write_failures_total(\\{[^}]*})? ");
    }

    private static String actor(String role) {
        return role + "-" + UUID.randomUUID();
    }

    /** {@code admin}, an admin of tenant ops, posts to {@code path}; the answer must have {@code status}. */
    private static Response postAsAdmin(String admin, String path, int status) {
        Response response = as(admin, "ops", "admin").post(path);
        assertThat(response.statusCode()).as(response.asString()).isEqualTo(status);
        return response;
    }

    private static RequestSpecification as(String subject, String tenant, String role) {
        return given().header("Authorization", TestTokens.bearer(TestTokens.token(subject, tenant, role)));
    }

    private static Response list(Map<String, String> parameters) {
        return given().header("Authorization", TestTokens.bearer(READER)).queryParams(parameters).get("/api/audit");
    }

    private static List<Map<String, Object>> entries(String... parameters) {
        Map<String, String> query = new java.util.LinkedHashMap<>();
        for (int i = 0; i < parameters.length; i += 2) {
            query.put(parameters[i], parameters[i + 1]);
        }
        Response response = list(query);
        assertThat(response.statusCode()).as(response.asString()).isEqualTo(200);
        return response.jsonPath().getList("entries");
    }
}
