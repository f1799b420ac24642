package dev.jobweaver.api.job.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.Database;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The group statements of the submission path on the real database: jobs and outbox rows stored together (with the
 * relaying instance's name and the event's size). The delete of acknowledged rows is {@code OutboxSweeperTest}'s.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class SubmissionStoreTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Inject
    SubmissionStore store;

    private static SubmissionStore.NewJob newJob() {
        return new SubmissionStore.NewJob(UUID.randomUUID(), "SIMULATION",
                "{\"steps\":[{\"action\":\"LOG\",\"message\":\"x\"}]}", "0af7651916cd43dd8448eb211c80319c", 2,
                Instant.now().truncatedTo(ChronoUnit.MICROS), UUID.randomUUID(),
                "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", 321);
    }

    private static boolean outboxHas(UUID jobId) throws Exception {
        return Database.hasRow("SELECT 1 FROM job_outbox WHERE job_id = ?", jobId);
    }

    @Test
    void aGroupIsStoredWithItsOutboxRows() throws Exception {
        SubmissionStore.NewJob first = newJob();
        SubmissionStore.NewJob second = newJob();

        store.insert(List.of(first, second), "api-service-2").await().atMost(WAIT);

        try (Connection db = Database.connect();
             PreparedStatement query = db.prepareStatement("SELECT j.status, j.instruction->'steps'->0->>'message',"
                     + " j.max_retries, j.created_at, o.event_id, o.traceparent, o.relay_instance, o.event_bytes"
                     + " FROM jobs j JOIN job_outbox o"
                     + " ON o.job_id = j.id WHERE j.id = ?")) {
            query.setObject(1, first.id());
            try (ResultSet rs = query.executeQuery()) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("PENDING");
                assertThat(rs.getString(2)).isEqualTo("x");
                assertThat(rs.getInt(3)).isEqualTo(2);
                assertThat(rs.getTimestamp(4).toInstant()).isEqualTo(first.createdAt());
                assertThat(rs.getObject(5)).isEqualTo(first.eventId());
                assertThat(rs.getString(6)).isEqualTo(first.traceparent());
                assertThat(rs.getString(7)).isEqualTo("api-service-2");
                assertThat(rs.getInt(8)).isEqualTo(321);
            }
        }
        assertThat(outboxHas(second.id())).isTrue();
    }
}
