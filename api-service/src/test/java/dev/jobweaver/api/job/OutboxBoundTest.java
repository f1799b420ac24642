package dev.jobweaver.api.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.api.testing.Database;
import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.UUID;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

/**
 * Past either bound of the unpublished outbox (jobs or bytes) a submission is answered 503 with Retry-After and a
 * message naming the bound, nothing is stored and readiness says the API is not accepting; once the backlog is back
 * within the bound, submissions are accepted again. The backlog is made of rows written as an outage would leave
 * them, with no job behind them (the table has no foreign key), so the service's own bounds are reached without
 * stopping the broker or a profile of their own; how the backlog grows while Kafka is down is
 * {@link JobSubmissionKafkaOutageTest}'s.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class OutboxBoundTest {

    /** Marks this test's rows, so that it removes only them. */
    private static final String MARK = "outbox-bound-test";

    @Test
    void pastItsJobBoundTheOutboxRefusesSubmissionsUntilTheBacklogShrinks() throws Exception {
        long maxJobs = ConfigProvider.getConfig().getValue("jobweaver.api.outbox.max-backlog-jobs", Long.class);
        try {
            insertBacklog(maxJobs, 0);

            assertRefusedNaming(maxJobs + " jobs");
        } finally {
            removeBacklog();
        }
        assertAcceptedAgain();
    }

    @Test
    void pastItsByteBoundTheOutboxRefusesSubmissionsUntilTheBacklogShrinks() throws Exception {
        long maxBytes = ConfigProvider.getConfig()
                .getValue("jobweaver.api.outbox.max-backlog-bytes", MemorySize.class).asLongValue();
        try {
            // one event as large as the bound: the job count stays far below its own
            insertBacklog(1, maxBytes);

            assertRefusedNaming(maxBytes + " bytes");
        } finally {
            removeBacklog();
        }
        assertAcceptedAgain();
    }

    /** Once the backlog is measured (every second) submissions are refused, naming {@code bound}. */
    private static void assertRefusedNaming(String bound) throws Exception {
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                .until(() -> Boolean.FALSE.equals(JobSubmissionKafkaOutageTest.relay().get("accepting")));
        String marker = UUID.randomUUID().toString();
        String body = Jobs.VALID.replace("\"hi\"", "\"" + marker + "\"");
        assertThat(body).as("the refused job's marker is in its body").contains(marker);

        Response refused = Jobs.submit(body);

        assertThat(refused.statusCode()).as(refused.body().asString()).isEqualTo(503);
        assertThat(refused.jsonPath().getString("errorCode")).isEqualTo("API.SERVICE_UNAVAILABLE");
        assertThat(refused.jsonPath().getString("message")).contains("over its bound of").contains(bound);
        assertThat(Integer.parseInt(refused.header("Retry-After"))).isPositive();
        assertThat(Database.firstLong("SELECT count(*) FROM jobs WHERE instruction::text LIKE '%' || ? || '%'",
                marker)).as("jobs stored by the refused submission").isZero();
    }

    private static void assertAcceptedAgain() {
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(250))
                .until(() -> Jobs.submit(Jobs.VALID).statusCode() == 202);
    }

    /** {@code rows} outbox rows of {@code bytes} bytes of events in all, stored just now by no named instance. */
    private static void insertBacklog(long rows, long bytes) throws Exception {
        try (Connection db = Database.connect(); PreparedStatement insert = db.prepareStatement("""
                INSERT INTO job_outbox (job_id, event_id, created_at, relay_instance, event_bytes)
                SELECT gen_random_uuid(), gen_random_uuid(), now(), ?, CASE WHEN n = 1 THEN ? ELSE 0 END
                FROM generate_series(1, ?) AS n
                """)) {
            insert.setString(1, MARK);
            insert.setLong(2, bytes);
            insert.setLong(3, rows);
            assertThat(insert.executeUpdate()).isEqualTo(rows);
        }
    }

    private static void removeBacklog() throws Exception {
        try (Connection db = Database.connect();
             PreparedStatement delete = db.prepareStatement("DELETE FROM job_outbox WHERE relay_instance = ?")) {
            delete.setString(1, MARK);
            delete.executeUpdate();
        }
    }
}
