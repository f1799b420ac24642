package dev.jobweaver.api.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.testing.Database;
import dev.jobweaver.api.testing.KafkaProbe;
import dev.jobweaver.api.testing.Schedules;
import dev.jobweaver.common.event.ScheduleEvent;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The republisher publishes what the publish after the commit did not: a row whose version Kafka has not acknowledged,
 * a row not published for longer than the refresh age, and a deleted row's tombstone (then the row goes).
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class ScheduleRepublisherTest {

    @Inject
    ObjectMapper mapper;

    @Test
    void aVersionKafkaDidNotAcknowledgeIsPublished() throws Exception {
        String id = settled();
        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.SCHEDULES)) {
            // a change committed whose publish never happened (a crash between the commit and the publish)
            update(id, "UPDATE schedules SET version = 7, paused = true WHERE id = ?");

            ScheduleEvent event = probe.first(id, mapper, ScheduleEvent.class);
            assertThat(event.version()).isEqualTo(7);
            assertThat(event.paused()).isTrue();
            await().atMost(Duration.ofSeconds(20)).until(() -> SchedulePublisherTest.publishedVersion(id) == 7);
        }
    }

    @Test
    void aScheduleNotPublishedForTheRefreshAgeIsPublishedAgain() throws Exception {
        String id = settled();
        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.SCHEDULES)) {
            update(id, "UPDATE schedules SET published_at = now() - interval '4 days' WHERE id = ?");

            assertThat(probe.first(id).value()).as("the same version again").isNotNull();
            await().atMost(Duration.ofSeconds(20)).until(() -> refreshedRecently(id));
        }
    }

    @Test
    void aDeletedRowGetsItsTombstoneThenGoes() throws Exception {
        String id = settled();
        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.SCHEDULES)) {
            // a delete committed whose tombstone never went out
            update(id, "UPDATE schedules SET deleted_at = now(), version = version + 1 WHERE id = ?");

            assertThat(probe.first(id).value()).isNull();
            await().atMost(Duration.ofSeconds(20)).until(() -> !SchedulePublisherTest.rowExists(id));
        }
    }

    /** A schedule whose creation was published and acknowledged. */
    private static String settled() {
        String id = Schedules.createOne();
        await().atMost(Duration.ofSeconds(20)).until(() -> SchedulePublisherTest.publishedVersion(id) == 1);
        return id;
    }

    private static void update(String id, String sql) throws Exception {
        try (Connection db = Database.connect(); PreparedStatement statement = db.prepareStatement(sql)) {
            statement.setObject(1, UUID.fromString(id));
            assertThat(statement.executeUpdate()).isEqualTo(1);
        }
    }

    private static boolean refreshedRecently(String id) throws Exception {
        return Database.hasRow("SELECT 1 FROM schedules WHERE id = ? AND published_at > now() - interval '1 minute'",
                UUID.fromString(id));
    }
}
