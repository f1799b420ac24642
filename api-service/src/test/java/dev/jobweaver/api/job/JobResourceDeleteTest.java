package dev.jobweaver.api.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static io.restassured.RestAssured.given;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.testing.Database;
import dev.jobweaver.api.testing.JobCommands;
import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.api.testing.KafkaProbe;
import dev.jobweaver.api.testing.StatusEvents;
import dev.jobweaver.common.job.JobCommand;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * DELETE /api/jobs/{id}: a finished job is answered 204 once its DELETE command is on job-commands and its rows are
 * gone (its Idempotency-Key stays); then GET and another DELETE are 404. A PENDING or RUNNING job is 409 naming its
 * status, with no command; an unknown job 404, a bad id 400.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class JobResourceDeleteTest {

    @Inject
    ObjectMapper mapper;

    @Inject
    MeterRegistry registry;

    @Test
    void aFinishedJobIsDeletedEverywhereInTheApiAndItsDeleteIsPublishedOnce() throws Exception {
        String key = "delete-" + UUID.randomUUID();
        Response submitted = given().contentType(ContentType.JSON).header("Idempotency-Key", key).body(Jobs.VALID)
                .post("/api/jobs");
        assertThat(submitted.statusCode()).as(submitted.body().asString()).isEqualTo(202);
        String jobId = submitted.jsonPath().getString("jobId");
        String traceId = submitted.jsonPath().getString("traceId");
        JobCommands.setStatus(jobId, JobStatus.COMPLETED);
        // an outbox row the relay's delayed delete has not removed yet (recent: the sweeper leaves it alone)
        try (Connection connection = Database.connect(); PreparedStatement insert = connection.prepareStatement(
                "INSERT INTO job_outbox (job_id, event_id, traceparent, created_at) VALUES (?, ?, NULL, now())"
                        + " ON CONFLICT (job_id) DO NOTHING")) {
            insert.setObject(1, UUID.fromString(jobId));
            insert.setObject(2, UUID.randomUUID());
            insert.executeUpdate();
        }
        assertThat(JobCommands.rows("job_outbox", "job_id", jobId)).isEqualTo(1);
        double accepted = Jobs.count(registry, "jobweaver.job.commands", "command", "delete");

        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.JOB_COMMANDS)) {
            Response response = JobCommands.delete(jobId);

            assertThat(response.statusCode()).as(response.body().asString()).isEqualTo(204);
            assertThat(response.body().asString()).isEmpty();
            JobCommands.single(probe, mapper, jobId, JobCommand.DELETE, traceId);
        }
        assertThat(given().get("/api/jobs/" + jobId).statusCode()).isEqualTo(404);
        assertThat(JobCommands.rows("jobs", "id", jobId)).isZero();
        assertThat(JobCommands.rows("job_outbox", "job_id", jobId)).isZero();
        assertThat(Jobs.count(registry, "jobweaver.job.commands", "command", "delete")).isEqualTo(accepted + 1);
        // the key stays until it expires: a repeat of the submission gets the first answer again, no second job
        assertThat(JobCommands.rows("idempotency_keys", "job_id", jobId)).isEqualTo(1);
        Response repeated = given().contentType(ContentType.JSON).header("Idempotency-Key", key).body(Jobs.VALID)
                .post("/api/jobs");
        assertThat(repeated.statusCode()).isEqualTo(202);
        assertThat(repeated.jsonPath().getString("jobId")).isEqualTo(jobId);
        assertThat(JobCommands.rows("jobs", "id", jobId)).isZero();

        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.JOB_COMMANDS)) {
            Response again = JobCommands.delete(jobId);

            assertThat(again.statusCode()).as(again.body().asString()).isEqualTo(404);
            assertThat(again.jsonPath().getString("errorCode")).isEqualTo("API.JOB_NOT_FOUND");
            assertThat(again.jsonPath().getString("jobId")).isEqualTo(jobId);
            probe.readToEnd();
            assertThat(probe.withKey(jobId)).as("commands of a deleted job").isEmpty();
        }
    }

    @Test
    void pendingAndRunningJobsAre409NamingTheirStatusAndNothingIsPublished() throws Exception {
        String pending = Jobs.submitOne();
        String running = Jobs.submitOne();
        StatusEvents.send(mapper, running, JobStatus.RUNNING, 2, 1, null);
        await().atMost(Duration.ofSeconds(20)).until(() -> "RUNNING".equals(Jobs.get(running).getString("status")));

        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.JOB_COMMANDS)) {
            for (String jobId : new String[] {pending, running}) {
                String status = Jobs.get(jobId).getString("status");
                Response response = JobCommands.delete(jobId);

                assertThat(response.statusCode()).as(response.body().asString()).isEqualTo(409);
                assertThat(response.jsonPath().getString("errorCode")).isEqualTo("API.JOB_NOT_FINISHED");
                assertThat(response.jsonPath().getString("jobId")).isEqualTo(jobId);
                assertThat(response.jsonPath().getString("message")).contains(jobId).contains("is " + status);
                assertThat(Jobs.get(jobId).getString("status")).isEqualTo(status);
            }
            probe.readToEnd();
            assertThat(probe.withKey(pending)).isEmpty();
            assertThat(probe.withKey(running)).isEmpty();
        }
    }
}
