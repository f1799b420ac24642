package dev.jobweaver.api.audit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.Database;
import dev.jobweaver.api.testing.SecuredProfile;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Entries older than {@code jobweaver.audit.retention} (90 days) are deleted; younger ones stay. */
@QuarkusTest
@TestProfile(SecuredProfile.class)
@JobWeaverTest(database = "jobweaver_api")
class AuditCleanupTest {

    @Inject
    AuditCleanup cleanup;

    @Test
    void entriesPastTheRetentionAreDeleted() throws Exception {
        String actor = "cleanup-" + UUID.randomUUID();
        Instant now = Instant.now();
        insert(actor, "old", now.minus(Duration.ofDays(91)));
        insert(actor, "older", now.minus(Duration.ofDays(400)));
        insert(actor, "recent", now.minus(Duration.ofDays(89)));
        insert(actor, "new", now);

        assertThat(cleanup.deleteExpired().await().atMost(Duration.ofSeconds(30))).isGreaterThanOrEqualTo(2);
        assertThat(objects(actor)).containsExactlyInAnyOrder("recent", "new");
    }

    private static void insert(String actor, String object, Instant at) throws SQLException {
        try (Connection connection = Database.connect();
             PreparedStatement statement = connection.prepareStatement("INSERT INTO audit_log (id, at, actor, method,"
                     + " path, object_id, status) VALUES (?, ?, ?, 'DELETE', '/api/x/{id}', ?, 204)")) {
            statement.setObject(1, UUID.randomUUID());
            statement.setTimestamp(2, Timestamp.from(at));
            statement.setString(3, actor);
            statement.setString(4, object);
            statement.executeUpdate();
        }
    }

    private static List<String> objects(String actor) throws SQLException {
        try (Connection connection = Database.connect();
             PreparedStatement statement = connection.prepareStatement(
                     "SELECT object_id FROM audit_log WHERE actor = ?")) {
            statement.setString(1, actor);
            List<String> objects = new ArrayList<>();
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    objects.add(rows.getString(1));
                }
            }
            return objects;
        }
    }
}
