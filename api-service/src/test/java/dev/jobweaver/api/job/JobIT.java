package dev.jobweaver.api.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.job.store.JsonColumns;
import dev.jobweaver.api.testing.Answers;
import dev.jobweaver.api.testing.JobCommands;
import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.api.testing.KafkaProbe;
import dev.jobweaver.api.testing.NativeExecutable;
import dev.jobweaver.api.testing.NativeProfile;
import dev.jobweaver.api.testing.StatusEvents;
import dev.jobweaver.common.event.JobCreatedEvent;
import dev.jobweaver.common.job.JobCommand;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.messaging.Topics;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A job in and out of the native executable through real Kafka and PostgreSQL: its JobCreatedEvent on job-created, a
 * status event on job-status shown by GET, the list, the delete; a cancel's command on job-commands.
 */
@ExtendWith(NativeProfile.AsAdmin.class)
class JobIT extends NativeExecutable {

    private final ObjectMapper mapper = JsonColumns.mapper();

    @Test
    void aJobGoesOutOnJobCreatedAndItsStatusComesBackFromJobStatus() throws Exception {
        String jobId;
        String traceId;
        try (KafkaProbe created = KafkaProbe.atEndOf(NativeProfile.bootstrapServers(), Topics.JOB_CREATED)) {
            JsonPath accepted = Answers.expect(Jobs.submit(Jobs.VALID), 202, "a valid job");
            jobId = accepted.getString("jobId");
            traceId = accepted.getString("traceId");
            assertThat(traceId).matches("[0-9a-f]{32}");

            JobCreatedEvent event = created.first(jobId, mapper, JobCreatedEvent.class);
            assertThat(event.jobId()).isEqualTo(UUID.fromString(jobId));
            assertThat(event.traceId()).isEqualTo(traceId);
            assertThat(event.maxRetries()).isEqualTo(2);
            assertThat(event.payload().path("steps").get(0).path("action").asText()).isEqualTo("LOG");
            assertThat(KafkaProbe.header(created.first(jobId), "traceparent")).startsWith("00-" + traceId + "-");
        }

        KafkaProbe.send(NativeProfile.bootstrapServers(), Topics.JOB_STATUS, jobId,
                StatusEvents.json(mapper, StatusEvents.event(jobId, JobStatus.COMPLETED, 5, 1, null)));
        String id = jobId;
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(Jobs.get(id).getString("status")).isEqualTo("COMPLETED"));
        JsonPath job = Jobs.get(jobId);
        assertThat(job.getString("traceId")).isEqualTo(traceId);
        assertThat(job.getInt("attempts")).isEqualTo(1);
        assertThat(job.getString("finishedAt")).isNotBlank();
        assertThat(job.getString("payload.steps[1].action")).isEqualTo("SLEEP");

        JsonPath page = Answers.expect(RestAssured.given().queryParam("status", "COMPLETED").get("/api/jobs"), 200,
                "the list");
        assertThat(page.getList("jobs.id", String.class)).contains(jobId);
        assertThat(page.getInt("totalElements")).isPositive();

        assertThat(JobCommands.delete(jobId).statusCode()).isEqualTo(204);
        assertThat(RestAssured.given().get("/api/jobs/" + jobId).statusCode()).isEqualTo(404);
    }

    @Test
    void aPendingJobsCancelGoesOutOnJobCommands() throws Exception {
        String jobId = Jobs.submitOne();
        String traceId = Jobs.get(jobId).getString("traceId");

        try (KafkaProbe probe = KafkaProbe.atEndOf(NativeProfile.bootstrapServers(), Topics.JOB_COMMANDS)) {
            JsonPath answer = Answers.expect(JobCommands.cancel(jobId), 202, "a pending job's cancel");
            assertThat(answer.getString("id")).isEqualTo(jobId);
            JobCommands.single(probe, mapper, jobId, JobCommand.CANCEL, traceId);
        }
    }
}
