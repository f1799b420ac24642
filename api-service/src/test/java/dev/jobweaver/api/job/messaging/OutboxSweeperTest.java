package dev.jobweaver.api.job.messaging;

import dev.jobweaver.local.testing.LocalStackResource;
import io.quarkus.test.common.ResourceArg;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.testing.Database;
import dev.jobweaver.api.testing.KafkaProbe;
import dev.jobweaver.common.event.JobCreatedEvent;
import dev.jobweaver.common.messaging.Headers;
import dev.jobweaver.common.messaging.Topics;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * A job committed with its outbox row but never sent (the API died in between) is published by the sweeper; a row
 * younger than the send timeout plus margin (a live request's) is left alone.
 */
@QuarkusTest
@QuarkusTestResource(value = LocalStackResource.class,
        initArgs = @ResourceArg(name = LocalStackResource.DATABASE, value = "jobweaver_api"))
class OutboxSweeperTest {

    private static final String TRACE_ID = "5bf92f3577b34da6a3ce929d0e0e4736";

    @Inject
    ObjectMapper mapper;

    private static void insertCrashedSubmission(UUID jobId, UUID eventId, Instant createdAt) throws SQLException {
        try (Connection db = Database.connect()) {
            db.setAutoCommit(false);
            try (PreparedStatement job = db.prepareStatement("INSERT INTO jobs (id, type, instruction, trace_id, status,"
                    + " max_retries, created_at, updated_at, next_run_at) VALUES (?, 'SIMULATION', ?::jsonb, ?,"
                    + " 'PENDING', 1, ?, ?, ?)");
                 PreparedStatement outbox = db.prepareStatement("INSERT INTO job_outbox (job_id, event_id, traceparent,"
                         + " created_at) VALUES (?, ?, ?, ?)")) {
                Timestamp at = Timestamp.from(createdAt);
                job.setObject(1, jobId);
                job.setString(2, "{\"steps\":[{\"action\":\"LOG\",\"message\":\"left behind\"}]}");
                job.setString(3, TRACE_ID);
                job.setTimestamp(4, at);
                job.setTimestamp(5, at);
                job.setTimestamp(6, at);
                job.executeUpdate();
                outbox.setObject(1, jobId);
                outbox.setObject(2, eventId);
                outbox.setString(3, "00-" + TRACE_ID + "-00f067aa0ba902b7-01");
                outbox.setTimestamp(4, at);
                outbox.executeUpdate();
            }
            db.commit();
        }
    }

    private static boolean outboxHas(UUID jobId) throws SQLException {
        try (Connection db = Database.connect();
             PreparedStatement query = db.prepareStatement("SELECT 1 FROM job_outbox WHERE job_id = ?")) {
            query.setObject(1, jobId);
            try (ResultSet rs = query.executeQuery()) {
                return rs.next();
            }
        }
    }

    @Test
    void rowLeftBehindByACrashIsPublished() throws Exception {
        UUID jobId = UUID.randomUUID();
        UUID eventId = UUID.randomUUID();
        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.JOB_CREATED)) {
            insertCrashedSubmission(jobId, eventId, Instant.now().minus(Duration.ofMinutes(5)));

            List<ConsumerRecord<String, byte[]>> records = probe.pollUntil(
                    seen -> seen.stream().anyMatch(r -> jobId.toString().equals(r.key())), Duration.ofSeconds(30));

            ConsumerRecord<String, byte[]> record = records.stream().filter(r -> jobId.toString().equals(r.key()))
                    .findFirst().orElseThrow(() -> new AssertionError("the sweeper did not publish " + jobId));
            assertThat(KafkaProbe.header(record, Headers.EVENT_ID)).isEqualTo(eventId.toString());
            assertThat(KafkaProbe.header(record, Headers.TRACEPARENT)).startsWith("00-" + TRACE_ID + "-");
            JobCreatedEvent event = mapper.readValue(record.value(), JobCreatedEvent.class);
            assertThat(event.jobId()).isEqualTo(jobId);
            assertThat(event.traceId()).isEqualTo(TRACE_ID);
            assertThat(event.maxRetries()).isEqualTo(1);
            assertThat(event.payload().steps()).hasSize(1);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> !outboxHas(jobId));
        given().get("/api/jobs/" + jobId).then().statusCode(200);
    }

    @Test
    void rowOfALiveRequestIsLeftAlone() throws Exception {
        UUID jobId = UUID.randomUUID();
        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.JOB_CREATED)) {
            insertCrashedSubmission(jobId, UUID.randomUUID(), Instant.now());

            // several sweeps run (every second in tests); none may touch a row younger than timeout plus margin
            List<ConsumerRecord<String, byte[]>> records = probe.pollFor(Duration.ofSeconds(4));

            assertThat(records).noneMatch(r -> jobId.toString().equals(r.key()));
            assertThat(outboxHas(jobId)).isTrue();
        } finally {
            try (Connection db = Database.connect();
                 PreparedStatement delete = db.prepareStatement("DELETE FROM jobs WHERE id = ?")) {
                delete.setObject(1, jobId);
                delete.executeUpdate();
            }
        }
    }
}
