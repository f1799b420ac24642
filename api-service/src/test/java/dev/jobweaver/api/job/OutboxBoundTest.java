package dev.jobweaver.api.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.api.testing.Database;
import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.api.testing.Broker;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * While Kafka is down the outbox grows up to its bound; past it a submission is answered 503 with Retry-After and a
 * message naming the bound, and nothing is stored; once Kafka took the backlog, submissions are accepted again.
 */
@QuarkusTest
@TestProfile(OutboxBoundTest.SmallBound.class)
@JobWeaverTest(database = "jobweaver_api")
class OutboxBoundTest {

    private static final int BOUND = 3;

    /** An outbox bound of three jobs. */
    public static final class SmallBound implements QuarkusTestProfile {

        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("jobweaver.api.outbox.max-backlog-jobs", Integer.toString(BOUND));
        }
    }

    @Test
    void pastItsBoundTheOutboxRefusesSubmissionsUntilKafkaTookTheBacklog() throws Exception {
        // other tests' rows in the shared database would count against the bound
        execute("DELETE FROM job_outbox");
        await().atMost(Duration.ofSeconds(10))
                .until(() -> ((Number) JobSubmissionKafkaOutageTest.relay().get("backlogJobs")).longValue() == 0);
        Broker.stop();
        try {
            for (int i = 0; i < BOUND; i++) {
                // A backlog measurement that overlaps a submission counts it twice until the next measurement
                // (OutboxBacklog errs on the safe side), so a refusal within the bound may only last until then.
                int submission = i;
                await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(250)).untilAsserted(() ->
                        assertThat(Jobs.submit(Jobs.VALID).statusCode())
                                .as("submission %d within the bound", submission).isEqualTo(202));
            }
            long jobsBefore = count("SELECT count(*) FROM jobs");

            Response refused = Jobs.submit(Jobs.VALID);

            assertThat(refused.statusCode()).as(refused.body().asString()).isEqualTo(503);
            assertThat(refused.jsonPath().getString("errorCode")).isEqualTo("API.SERVICE_UNAVAILABLE");
            assertThat(refused.jsonPath().getString("message")).contains("over its bound of " + BOUND + " jobs");
            assertThat(Integer.parseInt(refused.header("Retry-After"))).isPositive();
            assertThat(count("SELECT count(*) FROM jobs")).as("jobs stored by the refused submission")
                    .isEqualTo(jobsBefore);
            assertThat(JobSubmissionKafkaOutageTest.relay()).containsEntry("accepting", false);
        } finally {
            Broker.start();
        }

        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                .until(() -> Jobs.submit(Jobs.VALID).statusCode() == 202);
        // The relay hands the backlog to Kafka after the submission that was let in: wait for it, not for a moment.
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> count("SELECT count(*) FROM job_outbox") < BOUND);
    }

    private static void execute(String sql) throws Exception {
        try (Connection db = Database.connect(); Statement statement = db.createStatement()) {
            statement.executeUpdate(sql);
        }
    }

    private static long count(String sql) throws Exception {
        try (Connection db = Database.connect(); Statement statement = db.createStatement();
             ResultSet rs = statement.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
