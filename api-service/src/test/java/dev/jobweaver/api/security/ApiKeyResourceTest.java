package dev.jobweaver.api.security;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.Database;
import dev.jobweaver.api.testing.Endpoints;
import dev.jobweaver.api.testing.SecuredProfile;
import dev.jobweaver.api.testing.Tenants;
import dev.jobweaver.api.testing.TestTokens;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code /api/tenants/{tenant}/api-keys} on the secured API: bad input is a 400 naming the field and stores nothing; a
 * created key authenticates, is shown once and stored only as its hash; a revoked, expired or unknown key is a 401
 * that never repeats it; a key below admin is a 403 on every key endpoint, whatever its tenant.
 */
@QuarkusTest
@TestProfile(SecuredProfile.class)
@JobWeaverTest(database = "jobweaver_api")
class ApiKeyResourceTest {

    private static final String ADMIN = TestTokens.bearer(TestTokens.BOOTSTRAP_ADMIN_KEY);

    static Stream<Arguments> badBodies() {
        String future = Instant.now().plus(1, ChronoUnit.DAYS).toString();
        return Stream.of(
                Arguments.of("no name", "{\"roles\":[\"viewer\"]}", "API.INVALID_API_KEY_REQUEST", "name is required"),
                Arguments.of("null name", "{\"name\":null,\"roles\":[\"viewer\"]}", "API.INVALID_API_KEY_REQUEST",
                        "name is required"),
                Arguments.of("empty name", "{\"name\":\"\",\"roles\":[\"viewer\"]}", "API.INVALID_API_KEY_REQUEST",
                        "name must be 1 to 100 characters"),
                Arguments.of("blank name", "{\"name\":\"   \",\"roles\":[\"viewer\"]}", "API.INVALID_API_KEY_REQUEST",
                        "name must be 1 to 100 characters"),
                Arguments.of("long name", "{\"name\":\"" + "n".repeat(101) + "\",\"roles\":[\"viewer\"]}",
                        "API.INVALID_API_KEY_REQUEST", "name must be 1 to 100 characters and not blank, got 101"),
                Arguments.of("control character in name", "{\"name\":\"a\\u0000b\",\"roles\":[\"viewer\"]}",
                        "API.INVALID_API_KEY_REQUEST", "name must not contain control characters"),
                Arguments.of("name not a string", "{\"name\":5,\"roles\":[\"viewer\"]}", "API.MALFORMED_JSON",
                        "name must be a string"),
                Arguments.of("no roles", "{\"name\":\"ci\"}", "API.INVALID_API_KEY_REQUEST", "roles is required"),
                Arguments.of("empty roles", "{\"name\":\"ci\",\"roles\":[]}", "API.INVALID_API_KEY_REQUEST",
                        "roles must name at least one of [viewer, submitter, operator, admin]"),
                Arguments.of("unknown role", "{\"name\":\"ci\",\"roles\":[\"viewer\",\"root\"]}",
                        "API.INVALID_API_KEY_REQUEST", "roles[1] is 'root', not one of"),
                Arguments.of("role in capitals", "{\"name\":\"ci\",\"roles\":[\"ADMIN\"]}",
                        "API.INVALID_API_KEY_REQUEST", "roles[0] is 'ADMIN'"),
                Arguments.of("roles not an array", "{\"name\":\"ci\",\"roles\":\"admin\"}", "API.MALFORMED_JSON",
                        "roles must be an array"),
                Arguments.of("role not a string", "{\"name\":\"ci\",\"roles\":[1]}", "API.MALFORMED_JSON",
                        "roles[0] must be a string"),
                Arguments.of("expiry in the past", "{\"name\":\"ci\",\"roles\":[\"viewer\"],\"expiresAt\":"
                        + "\"2020-01-01T00:00:00Z\"}", "API.INVALID_API_KEY_REQUEST", "expiresAt must be in the future"),
                Arguments.of("expiry not a date", "{\"name\":\"ci\",\"roles\":[\"viewer\"],\"expiresAt\":\"tomorrow\"}",
                        "API.INVALID_API_KEY_REQUEST", "expiresAt must be an ISO-8601 date-time"),
                Arguments.of("expiry without offset", "{\"name\":\"ci\",\"roles\":[\"viewer\"],\"expiresAt\":\""
                        + future.replace("Z", "") + "\"}", "API.INVALID_API_KEY_REQUEST",
                        "expiresAt must be an ISO-8601 date-time"),
                Arguments.of("expiry a number", "{\"name\":\"ci\",\"roles\":[\"viewer\"],\"expiresAt\":1}",
                        "API.MALFORMED_JSON", "expiresAt must be an ISO-8601 date-time string"),
                Arguments.of("unknown field", "{\"name\":\"ci\",\"roles\":[\"viewer\"],\"tenant\":\"other\"}",
                        "API.INVALID_API_KEY_REQUEST", "unknown field 'tenant'"),
                Arguments.of("not an object", "[\"ci\"]", "API.MALFORMED_JSON", "must be a JSON object"),
                Arguments.of("bad JSON", "{\"name\":", "API.MALFORMED_JSON", "not valid JSON"),
                Arguments.of("duplicate key", "{\"name\":\"a\",\"name\":\"b\",\"roles\":[\"viewer\"]}",
                        "API.MALFORMED_JSON", "Duplicate field 'name'"),
                Arguments.of("empty", "", "API.MALFORMED_JSON", "request body is empty"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badBodies")
    void aBadBodyIsRefusedAndStoresNothing(String rule, String body, String errorCode, String messagePart)
            throws Exception {
        Tenants.assertRefusedStoringNothing("api_keys", tenant -> create(ADMIN, tenant, body), rule, errorCode,
                messagePart);
    }

    @Test
    void aBodyOverTheLimitIs413() throws Exception {
        String tenant = tenant();
        String big = "{\"name\":\"ci\",\"roles\":[\"viewer\"],\"pad\":\"" + "x".repeat(70_000) + "\"}";

        assertError("too large", create(ADMIN, tenant, big), 413, "API.PAYLOAD_TOO_LARGE", "larger than 65536 bytes");
        assertThat(rows(tenant)).isZero();
    }

    @ParameterizedTest
    @MethodSource("dev.jobweaver.api.testing.Tenants#invalid")
    void aBadTenantIsRefusedOnEveryEndpoint(String tenant) {
        new Endpoints().with("create", t -> create(ADMIN, t, body("ci", "viewer"))).with("list", t -> list(ADMIN, t))
                .with("revoke", t -> revoke(ADMIN, t, UUID.randomUUID().toString()))
                .refuse(tenant, 400, "API.INVALID_API_KEY_REQUEST", Tenants.BAD_TENANT_MESSAGE);
    }

    @Test
    void aCreatedKeyIsShownOnceStoredAsItsHashAndAuthenticates() throws Exception {
        String tenant = tenant();
        String expiresAt = Instant.now().plus(30, ChronoUnit.DAYS).truncatedTo(ChronoUnit.SECONDS).toString();
        Response created = create(ADMIN, tenant, "{\"name\":\"ci runner\",\"roles\":[\"admin\",\"viewer\"],"
                + "\"expiresAt\":\"" + expiresAt + "\"}");
        assertThat(created.statusCode()).as(created.asString()).isEqualTo(201);
        String key = created.jsonPath().getString("key");
        String id = created.jsonPath().getString("id");
        assertThat(key).matches("jw_[A-Za-z0-9_-]{43}");
        assertThat(created.header("Location")).isEqualTo("/api/tenants/" + tenant + "/api-keys/" + id);
        assertThat(created.jsonPath().getString("tenant")).isEqualTo(tenant);
        assertThat(created.jsonPath().getString("name")).isEqualTo("ci runner");
        assertThat(created.jsonPath().getList("roles", String.class)).containsExactly("viewer", "admin");
        assertThat(created.jsonPath().getString("prefix")).isEqualTo(key.substring(0, 11));
        assertThat(Instant.parse(created.jsonPath().getString("expiresAt"))).isEqualTo(Instant.parse(expiresAt));

        // the new key works, and the list never shows it again
        Response listed = list(TestTokens.bearer(key), tenant);
        assertThat(listed.statusCode()).as(listed.asString()).isEqualTo(200);
        assertThat(listed.asString()).doesNotContain(key).doesNotContain("\"key\"");
        assertThat(listed.jsonPath().getList("apiKeys.id", String.class)).containsExactly(id);
        assertThat(listed.jsonPath().getString("apiKeys[0].prefix")).isEqualTo(key.substring(0, 11));
        assertThat(listed.jsonPath().getLong("totalElements")).isEqualTo(1);
        assertThat(listed.jsonPath().getString("apiKeys[0].lastUsedAt")).isNotNull();

        // stored as its SHA-256, the key itself nowhere
        try (Connection db = Database.connect();
             PreparedStatement select = db.prepareStatement("SELECT * FROM api_keys WHERE id = ?")) {
            select.setObject(1, UUID.fromString(id));
            try (ResultSet row = select.executeQuery()) {
                assertThat(row.next()).isTrue();
                assertThat(row.getString("key_hash")).isEqualTo(ApiKeySecrets.hash(key));
                for (int column = 1; column <= row.getMetaData().getColumnCount(); column++) {
                    assertThat(String.valueOf(row.getObject(column))).doesNotContain(key.substring(11));
                }
            }
        }
        // an admin key of one tenant manages every tenant's keys
        assertThat(list(TestTokens.bearer(key), tenant()).statusCode()).isEqualTo(200);
    }

    @Test
    void aRevokedKeyIsRefusedAtOnceAndStaysRevoked() {
        String tenant = tenant();
        String key = createKey(tenant, "admin");
        String id = idOf(tenant, key);
        assertThat(list(TestTokens.bearer(key), tenant).statusCode()).isEqualTo(200); // and cached now

        assertThat(revoke(ADMIN, tenant, id).statusCode()).isEqualTo(204);
        Response refused = list(TestTokens.bearer(key), tenant);
        assertError("revoked", refused, 401, "API.UNAUTHENTICATED", "the credentials are not valid");
        assertThat(refused.asString()).doesNotContain(key);
        assertThat(refused.header("WWW-Authenticate")).startsWith("Bearer");

        String revokedAt = list(ADMIN, tenant).jsonPath().getString("apiKeys[0].revokedAt");
        assertThat(revokedAt).isNotNull();
        assertThat(revoke(ADMIN, tenant, id).statusCode()).isEqualTo(204);
        assertThat(list(ADMIN, tenant).jsonPath().getString("apiKeys[0].revokedAt")).isEqualTo(revokedAt);
        assertThat(list(TestTokens.bearer(key), tenant).statusCode()).isEqualTo(401);
    }

    @Test
    void anExpiredKeyIsRefused() throws Exception {
        String tenant = tenant();
        String key = createKey(tenant, "admin");
        try (Connection db = Database.connect();
             PreparedStatement expire = db.prepareStatement(
                     "UPDATE api_keys SET expires_at = now() - interval '1 minute' WHERE key_hash = ?")) {
            expire.setString(1, ApiKeySecrets.hash(key));
            assertThat(expire.executeUpdate()).isEqualTo(1);
        }
        Response refused = list(TestTokens.bearer(key), tenant);
        assertError("expired", refused, 401, "API.UNAUTHENTICATED", "the credentials are not valid");
        assertThat(refused.asString()).doesNotContain(key);
    }

    @Test
    void aKeyThatExpiresWhileCachedIsRefusedFromItsExpiryOn() throws Exception {
        String tenant = tenant();
        // within the 5 s key cache, so the key is still cached when it expires; 4 s leaves room for a loaded machine
        Instant expiresAt = Instant.now().plusSeconds(4);
        Response created = create(ADMIN, tenant, "{\"name\":\"short\",\"roles\":[\"admin\"],\"expiresAt\":\""
                + expiresAt + "\"}");
        assertThat(created.statusCode()).as(created.asString()).isEqualTo(201);
        String key = created.jsonPath().getString("key");
        assertThat(list(TestTokens.bearer(key), tenant).statusCode()).isEqualTo(200);
        Thread.sleep(Math.max(0, expiresAt.toEpochMilli() - System.currentTimeMillis()) + 100);
        assertThat(list(TestTokens.bearer(key), tenant).statusCode()).isEqualTo(401);
    }

    @ParameterizedTest
    @ValueSource(strings = {"jw_unknownunknownunknownunknownunknownunknown12", "jw_short", "jw_" + "x",
            "jw_not a key at all but spaces in it, 1234567890"})
    void anUnknownOrMalformedKeyIsRefusedWithoutRepeatingIt(String key) {
        Response refused = list(TestTokens.bearer(key), tenant());
        assertError(key, refused, 401, "API.UNAUTHENTICATED", "the credentials are not valid");
        assertThat(refused.asString()).doesNotContain(key);
    }

    @Test
    void noCredentialsIsA401WithAChallenge() {
        Response refused = given().accept(ContentType.JSON).get("/api/tenants/" + tenant() + "/api-keys");
        assertError("anonymous", refused, 401, "API.UNAUTHENTICATED", "credentials required");
        assertThat(refused.header("WWW-Authenticate")).isEqualTo("Bearer realm=\"jobweaver\"");
    }

    @ParameterizedTest
    @ValueSource(strings = {"viewer", "submitter", "operator"})
    void aKeyBelowAdminIsForbiddenOnEveryKeyEndpointOfAnyTenant(String role) throws SQLException {
        String tenant = tenant();
        String key = createKey(tenant, role);
        String auth = TestTokens.bearer(key);
        String other = tenant();
        String otherKeyId = idOf(other, createKey(other, "viewer"));
        for (String target : List.of(tenant, other)) {
            assertError(role + " lists " + target, list(auth, target), 403, "API.FORBIDDEN", "role");
            assertError(role + " creates in " + target, create(auth, target, body("mine", "admin")), 403,
                    "API.FORBIDDEN", "role");
        }
        assertError(role + " revokes", revoke(auth, other, otherKeyId), 403, "API.FORBIDDEN", "role");
        assertThat(list(ADMIN, other).jsonPath().getString("apiKeys[0].revokedAt")).isNull();
        assertThat(rows(tenant)).isEqualTo(1);
    }

    @Test
    void revokingAnUnknownKeyOrAnotherTenantsIs404() {
        String tenant = tenant();
        String other = tenant();
        String key = createKey(other, "admin");
        String id = idOf(other, key);
        assertError("unknown", revoke(ADMIN, tenant, UUID.randomUUID().toString()), 404, "API.API_KEY_NOT_FOUND",
                "has no API key with id");
        assertError("another tenant's", revoke(ADMIN, tenant, id), 404, "API.API_KEY_NOT_FOUND",
                "tenant " + tenant + " has no API key with id " + id);
        assertThat(list(TestTokens.bearer(key), other).statusCode()).isEqualTo(200);
        assertError("not a UUID", revoke(ADMIN, tenant, "nope"), 400, "API.INVALID_PARAMETER",
                "path parameter id must be a UUID");
    }

    @Test
    void aKeyWithExtraSpacesOrALowerCaseSchemeStillAuthenticates() {
        String tenant = tenant();
        String key = createKey(tenant, "admin");
        assertThat(given().header("Authorization", "bearer  " + key + " ").get(path(tenant)).statusCode())
                .isEqualTo(200);
    }

    private static String createKey(String tenant, String role) {
        Response created = create(ADMIN, tenant, body("key-" + role, role));
        assertThat(created.statusCode()).as(created.asString()).isEqualTo(201);
        return created.jsonPath().getString("key");
    }

    private static String idOf(String tenant, String key) {
        return list(ADMIN, tenant).jsonPath().getList("apiKeys", Map.class).stream()
                .filter(k -> key.startsWith((String) k.get("prefix"))).map(k -> (String) k.get("id"))
                .findFirst().orElseThrow();
    }

    private static String body(String name, String role) {
        return "{\"name\":\"" + name + "\",\"roles\":[\"" + role + "\"]}";
    }

    private static String tenant() {
        return Tenants.fresh("keys");
    }

    private static String path(String tenant) {
        return "/api/tenants/" + tenant + "/api-keys";
    }

    static Response create(String auth, String tenant, String body) {
        return given().header("Authorization", auth).contentType(ContentType.JSON).body(body).post(path(tenant));
    }

    static Response list(String auth, String tenant) {
        return given().header("Authorization", auth).get(path(tenant));
    }

    private static Response revoke(String auth, String tenant, String id) {
        return given().header("Authorization", auth).delete(path(tenant) + "/" + id);
    }

    static void assertError(String rule, Response response, int status, String errorCode, String messagePart) {
        assertThat(response.statusCode()).as(rule + ": " + response.asString()).isEqualTo(status);
        assertThat(response.jsonPath().getString("errorCode")).as(rule).isEqualTo(errorCode);
        assertThat(response.jsonPath().getInt("status")).as(rule).isEqualTo(status);
        assertThat(response.jsonPath().getString("message")).as(rule).contains(messagePart);
    }

    private static long rows(String tenant) throws SQLException {
        return Database.firstLong("SELECT count(*) FROM api_keys WHERE tenant = ?", tenant);
    }
}
