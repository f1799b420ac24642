package dev.jobweaver.api.security;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.Database;
import dev.jobweaver.api.testing.SecuredProfile;
import dev.jobweaver.api.testing.TestTokens;
import dev.jobweaver.common.job.JobIds;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The bootstrap admin key: stored at start as an admin key of tenant {@code default}, once, however often the start
 * runs; a revoked key is not stored again.
 */
@QuarkusTest
@TestProfile(SecuredProfile.class)
@JobWeaverTest(database = "jobweaver_api")
class BootstrapAdminKeyTest {

    @Inject
    BootstrapAdminKey bootstrap;

    @Inject
    ApiKeyStatements statements;

    @Test
    void theBootstrapKeyIsAnAdminKeyOfTenantDefaultStoredOnce() throws Exception {
        assertThat(given().header("Authorization", TestTokens.bearer(TestTokens.BOOTSTRAP_ADMIN_KEY))
                .get("/api/tenants/default/api-keys").statusCode()).isEqualTo(200);
        bootstrap.store(null);
        bootstrap.store(null);
        try (Connection db = Database.connect();
             PreparedStatement select = db.prepareStatement(
                     "SELECT tenant, name, roles, prefix, revoked_at FROM api_keys WHERE key_hash = ?")) {
            select.setString(1, ApiKeySecrets.hash(TestTokens.BOOTSTRAP_ADMIN_KEY));
            try (ResultSet row = select.executeQuery()) {
                assertThat(row.next()).isTrue();
                assertThat(row.getString("tenant")).isEqualTo("default");
                assertThat(row.getString("name")).isEqualTo(BootstrapAdminKey.NAME);
                assertThat(row.getString("roles")).isEqualTo("admin");
                assertThat(row.getString("prefix")).isEqualTo(TestTokens.BOOTSTRAP_ADMIN_KEY.substring(0, 11));
                assertThat(row.getObject("revoked_at")).isNull();
                assertThat(row.next()).as("one row only").isFalse();
            }
        }
    }

    @Test
    void aRevokedKeyIsNotStoredAgain() throws Exception {
        String key = ApiKeySecrets.newKey();
        String hash = ApiKeySecrets.hash(key);
        assertThat(insertOnce(key)).isTrue();
        try (Connection db = Database.connect();
             PreparedStatement revoke = db.prepareStatement(
                     "UPDATE api_keys SET revoked_at = now() WHERE key_hash = ?")) {
            revoke.setString(1, hash);
            assertThat(revoke.executeUpdate()).isEqualTo(1);
        }
        assertThat(insertOnce(key)).isFalse();
        try (Connection db = Database.connect();
             PreparedStatement select = db.prepareStatement(
                     "SELECT count(*), bool_and(revoked_at IS NOT NULL) FROM api_keys WHERE key_hash = ?")) {
            select.setString(1, hash);
            try (ResultSet row = select.executeQuery()) {
                row.next();
                assertThat(row.getLong(1)).isEqualTo(1);
                assertThat(row.getBoolean(2)).isTrue();
            }
        }
        assertThat(given().header("Authorization", TestTokens.bearer(key)).get("/api/tenants/default/api-keys")
                .statusCode()).isEqualTo(401);
    }

    /** Stores {@code key} as an admin key of tenant {@code default} unless it is stored already; true when this call stored it. */
    private boolean insertOnce(String key) {
        return statements.insertOnce(JobIds.next(), "default", "again", "admin", ApiKeySecrets.hash(key),
                ApiKeySecrets.prefix(key)).await().atMost(Duration.ofSeconds(10));
    }
}
