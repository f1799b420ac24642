package dev.jobweaver.api.job;

import dev.jobweaver.testing.JobWeaverTest;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.testing.Database;
import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.api.testing.KafkaProbe;
import dev.jobweaver.common.job.Payloads;
import dev.jobweaver.common.event.JobCreatedEvent;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.job.Step;
import dev.jobweaver.common.messaging.Headers;
import dev.jobweaver.common.messaging.Topics;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** A submission is stored, answered 202 with Location, and its JobCreatedEvent is on job-created. */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class JobResourceSubmitTest {

    @Inject
    ObjectMapper mapper;

    @Test
    void submissionIsStoredAndPublishedWithKeyAndHeaders() throws Exception {
        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.JOB_CREATED)) {
            Response response = Jobs.submit(Jobs.VALID);

            assertThat(response.statusCode()).isEqualTo(202);
            String jobId = response.jsonPath().getString("jobId");
            String traceId = response.jsonPath().getString("traceId");
            assertThat(UUID.fromString(jobId).version()).as("a time-ordered (version 7) job id").isEqualTo(7);
            assertThat(traceId).matches("[0-9a-f]{32}").isNotEqualTo("0".repeat(32));
            assertThat(response.header("Location")).as("relative, as SPEC.md writes it").isEqualTo("/api/jobs/" + jobId);

            List<ConsumerRecord<String, byte[]>> records = probe.pollUntil(
                    seen -> seen.stream().anyMatch(r -> jobId.equals(r.key())), Duration.ofSeconds(20));
            List<ConsumerRecord<String, byte[]>> mine = records.stream().filter(r -> jobId.equals(r.key())).toList();
            assertThat(mine).hasSize(1);
            ConsumerRecord<String, byte[]> record = mine.getFirst();
            assertThat(UUID.fromString(KafkaProbe.header(record, Headers.EVENT_ID))).isNotNull();
            assertThat(KafkaProbe.header(record, Headers.TRACEPARENT)).startsWith("00-" + traceId + "-");

            JobCreatedEvent event = mapper.readValue(record.value(), JobCreatedEvent.class);
            assertThat(event.jobId()).hasToString(jobId);
            assertThat(event.jobType()).isEqualTo(JobType.SIMULATION);
            assertThat(event.maxRetries()).isEqualTo(2);
            assertThat(event.traceId()).isEqualTo(traceId);
            assertThat(Payloads.simulation(event.payload()).steps()).containsExactly(new Step.Log("hi"), new Step.Sleep(10L));

            given().when().get("/api/jobs/" + jobId).then().statusCode(200)
                    .contentType(ContentType.JSON)
                    .body("id", org.hamcrest.Matchers.equalTo(jobId))
                    .body("type", org.hamcrest.Matchers.equalTo("SIMULATION"))
                    .body("status", org.hamcrest.Matchers.equalTo("PENDING"))
                    .body("traceId", org.hamcrest.Matchers.equalTo(traceId))
                    .body("maxRetries", org.hamcrest.Matchers.equalTo(2))
                    .body("payload.steps[1].action", org.hamcrest.Matchers.equalTo("SLEEP"))
                    .body("payload.steps[1].durationMs", org.hamcrest.Matchers.equalTo(10));

            try (Connection db = Database.connect();
                 PreparedStatement jobs = db.prepareStatement("SELECT status, trace_id FROM jobs WHERE id = ?");
                 PreparedStatement outbox = db.prepareStatement("SELECT count(*) FROM job_outbox WHERE job_id = ?")) {
                jobs.setObject(1, UUID.fromString(jobId));
                try (ResultSet rs = jobs.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getString(1)).isEqualTo(JobStatus.PENDING.name());
                    assertThat(rs.getString(2)).isEqualTo(traceId);
                }
                outbox.setObject(1, UUID.fromString(jobId));
                // The 202 does not wait for the outbox delete, which follows it at once.
                await("outbox row removed once Kafka acknowledged")
                        .atMost(Duration.ofSeconds(10)).until(() -> {
                            try (ResultSet rs = outbox.executeQuery()) {
                                rs.next();
                                return rs.getInt(1) == 0;
                            }
                        });
            }
        }
    }

    @Test
    void clientTraceparentJoinsTheJobToTheClientsTrace() {
        String clientTrace = "4bf92f3577b34da6a3ce929d0e0e4736";
        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.JOB_CREATED)) {
            Response response = given().contentType(ContentType.JSON)
                    .header("traceparent", "00-" + clientTrace + "-00f067aa0ba902b7-01")
                    .body(Jobs.VALID).post("/api/jobs");

            assertThat(response.statusCode()).isEqualTo(202);
            assertThat(response.jsonPath().getString("traceId")).isEqualTo(clientTrace);
            String jobId = response.jsonPath().getString("jobId");
            ConsumerRecord<String, byte[]> record = probe.first(jobId);
            assertThat(KafkaProbe.header(record, Headers.TRACEPARENT)).startsWith("00-" + clientTrace + "-");
        }
    }
}
