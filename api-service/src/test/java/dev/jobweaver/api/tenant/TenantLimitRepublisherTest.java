package dev.jobweaver.api.tenant;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.testing.Database;
import dev.jobweaver.api.testing.KafkaProbe;
import dev.jobweaver.common.event.TenantLimitEvent;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The republisher publishes what the publish after the commit did not: a change Kafka has not acknowledged (a set limit
 * and a removed one), and a limit not published for longer than the refresh age.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class TenantLimitRepublisherTest {

    @Inject
    ObjectMapper mapper;

    @Test
    void aChangeKafkaDidNotAcknowledgeIsPublished() throws Exception {
        String tenant = settled();
        // a change committed whose publish never happened (a crash between the commit and the publish)
        TenantLimitEvent event = republished(tenant, "version = 7, max_running = 9");

        assertThat(event.version()).isEqualTo(7);
        assertThat(event.maxRunning()).isEqualTo(9);
        await().atMost(Duration.ofSeconds(20)).until(() -> publishedVersion(tenant) == 7);
    }

    @Test
    void aRemovalKafkaDidNotAcknowledgeIsPublishedWithoutALimit() throws Exception {
        String tenant = settled();
        TenantLimitEvent event = republished(tenant, "version = 2, max_running = NULL");

        assertThat(event.version()).isEqualTo(2);
        assertThat(event.maxRunning()).isNull();
        await().atMost(Duration.ofSeconds(20)).until(() -> publishedVersion(tenant) == 2);
    }

    @Test
    void aLimitNotPublishedForTheRefreshAgeIsPublishedAgain() throws Exception {
        String tenant = settled();
        TenantLimitEvent event = republished(tenant, "published_at = now() - interval '4 days'");

        assertThat(event.version()).as("the same version again").isEqualTo(1);
        assertThat(event.maxRunning()).isEqualTo(5);
        await().atMost(Duration.ofSeconds(20)).until(() -> refreshedRecently(tenant));
    }

    /** A tenant whose limit of 5 was published and acknowledged. */
    private static String settled() throws Exception {
        String tenant = "r-" + UUID.randomUUID().toString().substring(0, 8);
        given().contentType(ContentType.JSON).body("{\"maxRunning\":5}").put("/api/tenants/" + tenant + "/limits")
                .then().statusCode(200);
        await().atMost(Duration.ofSeconds(20)).until(() -> publishedVersion(tenant) == 1);
        return tenant;
    }

    /** The event published for {@code tenant} once its row was changed by {@code set}, behind the API's back. */
    private TenantLimitEvent republished(String tenant, String set) throws Exception {
        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.TENANT_LIMITS)) {
            update(tenant, "UPDATE tenant_limits SET " + set + " WHERE tenant = ?");
            return next(probe, tenant);
        }
    }

    private TenantLimitEvent next(KafkaProbe probe, String tenant) throws Exception {
        return probe.first(tenant, mapper, TenantLimitEvent.class);
    }

    private static void update(String tenant, String sql) throws Exception {
        try (Connection db = Database.connect(); PreparedStatement statement = db.prepareStatement(sql)) {
            statement.setString(1, tenant);
            assertThat(statement.executeUpdate()).isEqualTo(1);
        }
    }

    private static long publishedVersion(String tenant) throws Exception {
        return TenantLimitResourceTest.publishedVersion(tenant);
    }

    private static boolean refreshedRecently(String tenant) throws Exception {
        return Database.firstLong("SELECT CASE WHEN published_at > now() - interval '1 minute' THEN 1 ELSE 0 END"
                + " FROM tenant_limits WHERE tenant = ?", tenant) == 1;
    }
}
