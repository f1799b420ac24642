package dev.jobweaver.api.security.crypto;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.Database;
import dev.jobweaver.api.testing.Hooks;
import dev.jobweaver.api.testing.Subscriptions;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The webhook secrets of hooks and subscriptions are stored sealed, shown once at creation and never after, and still
 * sign and verify; a plaintext stored before sealing keeps working and is sealed by {@link PlaintextSecretSealing}.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class SecretsAtRestTest {

    private static final String RECEIVER = "https://hooks.example.com/jobweaver";

    @Inject
    SealedSecrets secrets;

    @Inject
    PlaintextSecretSealing sealing;

    @Test
    void aHookSecretIsStoredSealedShownOnceAndStillVerifiesCalls() throws Exception {
        Hooks.Created hook = Hooks.createJobHook("sealed-" + UUID.randomUUID());
        assertThat(hook.secret()).startsWith("jwhook_");

        String stored = stored("hooks", hook.id());
        assertThat(stored).startsWith("v1:").doesNotContain(hook.secret())
                .doesNotContain(hook.secret().substring("jwhook_".length()));
        assertThat(secrets.open(stored, UUID.fromString(hook.id()))).isEqualTo(hook.secret());

        assertThat(given().get("/api/hooks/" + hook.id()).then().statusCode(200).extract().asString())
                .doesNotContain(hook.secret()).doesNotContain(stored).doesNotContain("secret");
        assertThat(given().get("/api/hooks?size=100").then().statusCode(200).extract().asString())
                .doesNotContain(hook.secret()).doesNotContain(stored);

        Response call = Hooks.callSigned(hook.id(), hook.secret(), "{\"marker\":\"" + UUID.randomUUID() + "\"}");
        assertThat(call.statusCode()).as(call.asString()).isEqualTo(202);
        Response forged = Hooks.callSigned(hook.id(), stored, "{}");
        assertThat(forged.statusCode()).as("the sealed form is no key").isEqualTo(401);
    }

    @Test
    void aSubscriptionSecretIsStoredSealedAndShownOnce() throws Exception {
        Response created = Subscriptions.create("{\"jobType\":\"SIMULATION\",\"events\":[\"COMPLETED\"],\"url\":\""
                + RECEIVER + "\"}");
        assertThat(created.statusCode()).as(created.asString()).isEqualTo(201);
        String id = created.jsonPath().getString("id");
        String secret = created.jsonPath().getString("secret");
        assertThat(secret).startsWith("whsec_");

        String stored = stored("subscriptions", id);
        assertThat(stored).startsWith("v1:").doesNotContain(secret)
                .doesNotContain(secret.substring("whsec_".length()));
        // what the sender signs with (DeliveryStore opens it so)
        assertThat(secrets.open(stored, UUID.fromString(id))).isEqualTo(secret);

        assertThat(given().get("/api/subscriptions/" + id).then().statusCode(200).extract().asString())
                .doesNotContain(secret).doesNotContain(stored).doesNotContain("secret");
        given().delete("/api/subscriptions/" + id).then().statusCode(204);
    }

    @Test
    void aPlaintextStoredBeforeSealingStillVerifiesAndIsSealed() throws Exception {
        Hooks.Created hook = Hooks.createJobHook("legacy-" + UUID.randomUUID());
        String legacy = "jwhook_legacy" + UUID.randomUUID().toString().replace("-", "");
        write("hooks", hook.id(), legacy);
        Response subscription = Subscriptions.create("{\"jobType\":\"HTTP\",\"events\":[\"FAILED\"],\"url\":\""
                + RECEIVER + "\"}");
        String subscriptionId = subscription.jsonPath().getString("id");
        String legacyWebhook = "whsec_bGVnYWN5LXNlY3JldC1vZi1hLXN1YnNjcmlwdGlvbi0x";
        write("subscriptions", subscriptionId, legacyWebhook);

        assertThat(Hooks.callSigned(hook.id(), legacy, "{}").statusCode()).as("read as plaintext").isEqualTo(202);

        assertThat(sealing.sealAll().await().indefinitely()).isGreaterThanOrEqualTo(2);
        String sealedHook = stored("hooks", hook.id());
        assertThat(sealedHook).startsWith("v1:").doesNotContain(legacy);
        assertThat(Hooks.callSigned(hook.id(), legacy, "{}").statusCode()).as("sealed").isEqualTo(202);
        String sealedSubscription = stored("subscriptions", subscriptionId);
        assertThat(sealedSubscription).startsWith("v1:").doesNotContain(legacyWebhook);
        assertThat(secrets.open(sealedSubscription, UUID.fromString(subscriptionId))).isEqualTo(legacyWebhook);

        assertThat(sealing.sealAll().await().indefinitely()).as("nothing left in plaintext").isZero();
        assertThat(stored("hooks", hook.id())).as("a sealed value is not sealed again").isEqualTo(sealedHook);
        given().delete("/api/subscriptions/" + subscriptionId).then().statusCode(204);
    }

    @Test
    void aHookWhoseSecretNoLongerOpensAnswersCallsNamingTheProblemAndCanStillBeReadAndDeleted() throws Exception {
        Hooks.Created hook = Hooks.createJobHook("rekeyed-" + UUID.randomUUID());
        // sealed for another row: what a changed secret key looks like to the cipher
        Hooks.Created other = Hooks.createJobHook("other-" + UUID.randomUUID());
        write("hooks", hook.id(), stored("hooks", other.id()));
        String marker = UUID.randomUUID().toString();

        Response call = Hooks.callSigned(hook.id(), hook.secret(), "{\"marker\":\"" + marker + "\"}");

        assertThat(call.statusCode()).as(call.asString()).isEqualTo(500);
        assertThat(call.jsonPath().getString("errorCode")).isEqualTo("API.SECRET_UNREADABLE");
        assertThat(call.jsonPath().getString("message")).contains("secret cannot be read")
                .doesNotContain(hook.secret());
        assertThat(Hooks.jobsWithMarker(marker)).as("nothing was made").isZero();
        given().get("/api/hooks/" + hook.id()).then().statusCode(200);
        given().delete("/api/hooks/" + hook.id()).then().statusCode(204);
        assertThat(Hooks.callSigned(hook.id(), hook.secret(), "{}").statusCode()).isEqualTo(404);
    }

    private static String stored(String table, String id) throws SQLException {
        try (Connection connection = Database.connect();
             PreparedStatement statement = connection.prepareStatement(
                     "SELECT secret FROM " + table + " WHERE id = ?")) {
            statement.setObject(1, UUID.fromString(id));
            try (ResultSet rows = statement.executeQuery()) {
                assertThat(rows.next()).as(table + " " + id).isTrue();
                return rows.getString(1);
            }
        }
    }

    private static void write(String table, String id, String secret) throws SQLException {
        try (Connection connection = Database.connect();
             PreparedStatement statement = connection.prepareStatement(
                     "UPDATE " + table + " SET secret = ? WHERE id = ?")) {
            statement.setString(1, secret);
            statement.setObject(2, UUID.fromString(id));
            assertThat(statement.executeUpdate()).isEqualTo(1);
        }
    }
}
