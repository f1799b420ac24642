package dev.jobweaver.api.job.outbox;

import dev.jobweaver.testing.JobWeaverTest;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.testing.KafkaProbe;
import dev.jobweaver.api.testing.PerClassSettings;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.Payloads;
import dev.jobweaver.common.job.Priority;
import dev.jobweaver.common.event.JobCreatedEvent;
import dev.jobweaver.common.messaging.Headers;
import dev.jobweaver.common.messaging.Topics;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * A job committed with its outbox row but never published (the API died in between, or Kafka was down for longer than
 * the relay's delivery timeout) is published by the sweeper: another instance's row once it is older than the relay's
 * bound plus the margin, and at once a row this instance's previous run stored; a younger row of another instance (a
 * live relay's) is left alone. The profile gives this instance a stable name and a delivery timeout of two minutes,
 * so that only the rule under test can publish a recent row.
 */
@QuarkusTest
@TestProfile(PerClassSettings.class)
@JobWeaverTest(database = "jobweaver_api")
class OutboxSweeperTest {

    private static final String TRACE_ID = OutboxRows.TRACE_ID;
    private static final String INSTANCE = PerClassSettings.INSTANCE_ID;

    @Inject
    ObjectMapper mapper;

    @Inject
    OutboxSweeper sweeper;

    @Test
    void rowLeftBehindByACrashIsPublished() throws Exception {
        UUID jobId = UUID.randomUUID();
        UUID eventId = UUID.randomUUID();
        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.JOB_CREATED)) {
            OutboxRows.insert(jobId, eventId, Instant.now().minus(Duration.ofMinutes(5)));

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
            assertThat(Payloads.simulation(event.payload()).steps()).hasSize(1);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> !OutboxRows.has(jobId));
        given().get("/api/jobs/" + jobId).then().statusCode(200);
    }

    @Test
    void rowLeftBehindKeepsItsJobControl() throws Exception {
        UUID jobId = UUID.randomUUID();
        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.JOB_CREATED)) {
            OutboxRows.insert(jobId, UUID.randomUUID(), Instant.now().minus(Duration.ofMinutes(5)), null,
                    "UPDATE jobs SET priority = 'HIGH', run_at = '2030-01-31T09:00:00Z', timeout_ms = 5000,"
                            + " retry_delays_ms = '[100, 2000]', tenant = 'acme', labels = '{\"team\": \"billing\"}'"
                            + " WHERE id = ?");

            List<ConsumerRecord<String, byte[]>> records = probe.pollUntil(
                    seen -> seen.stream().anyMatch(r -> jobId.toString().equals(r.key())), Duration.ofSeconds(30));

            ConsumerRecord<String, byte[]> record = records.stream().filter(r -> jobId.toString().equals(r.key()))
                    .findFirst().orElseThrow(() -> new AssertionError("the sweeper did not publish " + jobId));
            JobCreatedEvent event = mapper.readValue(record.value(), JobCreatedEvent.class);
            assertThat(event.control()).isEqualTo(new JobControl(Priority.HIGH,
                    Instant.parse("2030-01-31T09:00:00Z"), 5000L, List.of(100L, 2000L), "acme",
                    Map.of("team", "billing")));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> !OutboxRows.has(jobId));
    }

    @Test
    void rowThisInstancesPreviousRunLeftIsPublishedAtOnce() throws Exception {
        UUID jobId = UUID.randomUUID();
        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.JOB_CREATED)) {
            // stored by this instance's name just before it started: its previous run, dead, never published it
            OutboxRows.insert(jobId, UUID.randomUUID(), sweeper.startedAt().minusMillis(500), INSTANCE, null);

            List<ConsumerRecord<String, byte[]>> records = probe.pollUntil(
                    seen -> seen.stream().anyMatch(r -> jobId.toString().equals(r.key())), Duration.ofSeconds(20));

            assertThat(records).anyMatch(r -> jobId.toString().equals(r.key()));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> !OutboxRows.has(jobId));
    }

    @Test
    void recentRowOfAnotherInstanceIsLeftAlone() throws Exception {
        UUID jobId = UUID.randomUUID();
        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.JOB_CREATED)) {
            OutboxRows.insert(jobId, UUID.randomUUID(), Instant.now());

            // three sweeps run to their end (besides the scheduled ones, every second in tests); none may touch
            // another instance's row younger than the relay's bound plus the margin. What a sweep publishes is
            // acknowledged before it ends, so it is on job-created by then.
            for (int sweep = 0; sweep < 3; sweep++) {
                sweeper.publishOldest().await().atMost(Duration.ofSeconds(30));
            }
            List<ConsumerRecord<String, byte[]>> records = probe.readToEnd();

            assertThat(records).noneMatch(r -> jobId.toString().equals(r.key()));
            assertThat(OutboxRows.has(jobId)).isTrue();
        } finally {
            OutboxRows.deleteJobs(jobId);
        }
    }
}
