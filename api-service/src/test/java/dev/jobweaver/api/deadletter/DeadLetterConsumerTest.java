package dev.jobweaver.api.deadletter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.api.testing.ConsumerTestSupport;
import dev.jobweaver.api.testing.DeadLetters;
import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.api.testing.KafkaProbe;
import dev.jobweaver.common.event.DeadLetterEvent;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.QuarantineReason;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/**
 * job-dead-letter into {@code dead_letters}: a new job's dead letter is stored OPEN with its type from the read model;
 * a newer failure reopens it and counts it; an older or equal one (a redelivery) changes nothing; a malformed record is
 * quarantined and the one behind it stored; a job the read model does not hold gets none.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class DeadLetterConsumerTest extends ConsumerTestSupport {

    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";

    @Test
    void aNewJobsDeadLetterIsStoredOpenWithItsTypeFromTheReadModel() throws Exception {
        String jobId = Jobs.submitOne();
        Instant failedAt = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        double opened = Jobs.count(registry, "jobweaver.dead.letters.received", "result", "opened");

        send(new DeadLetterEvent(UUID.fromString(jobId), "step 2 failed", 2, failedAt, TRACE_ID, "acme",
                Map.of("team", "billing")));

        JsonPath deadLetter = awaitDeadLetter(jobId);
        assertThat(deadLetter.getString("jobId")).isEqualTo(jobId);
        assertThat(deadLetter.getString("jobType")).isEqualTo("SIMULATION");
        assertThat(deadLetter.getString("tenant")).isEqualTo("acme");
        assertThat(deadLetter.getMap("labels")).isEqualTo(Map.of("team", "billing"));
        assertThat(deadLetter.getString("state")).isEqualTo("OPEN");
        assertThat(deadLetter.getString("reason")).isEqualTo("step 2 failed");
        assertThat(deadLetter.getString("lastError")).isEqualTo("step 2 failed");
        assertThat(deadLetter.getInt("attempts")).as("finalRetryCount + 1: the read model has seen no attempt")
                .isEqualTo(3);
        assertThat(Instant.parse(deadLetter.getString("failedAt"))).isEqualTo(failedAt);
        assertThat(deadLetter.getString("traceId")).isEqualTo(TRACE_ID);
        assertThat(deadLetter.getInt("deadCount")).isEqualTo(1);
        assertThat(deadLetter.getInt("requeueCount")).isZero();
        assertThat(deadLetter.getMap("")).as("absent when null")
                .doesNotContainKeys("requeuedAt", "discardedAt", "discardReason");
        // counted just after the commit that the read model shows
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(Jobs.count(registry, "jobweaver.dead.letters.received", "result", "opened"))
                        .isEqualTo(opened + 1));
    }

    @Test
    void withoutTenantOrLabelsTheReadModelsAreKept() throws Exception {
        String jobId = Jobs.submitOne();
        send(new DeadLetterEvent(UUID.fromString(jobId), "boom", 0, Instant.now(), null));

        JsonPath deadLetter = awaitDeadLetter(jobId);
        assertThat(deadLetter.getString("tenant")).isEqualTo("default");
        assertThat(deadLetter.getMap("")).doesNotContainKey("labels");
        assertThat(deadLetter.getString("traceId")).as("the job's own").isEqualTo(Jobs.get(jobId).getString("traceId"));
        assertThat(deadLetter.getInt("attempts")).isEqualTo(1);
    }

    @Test
    void aNewerFailureReopensARequeuedDeadLetterAndAnOlderOneChangesNothing() throws Exception {
        String jobId = Jobs.submitOne();
        UUID id = UUID.fromString(jobId);
        Instant first = Instant.now().minusSeconds(60).truncatedTo(ChronoUnit.MILLIS);
        send(new DeadLetterEvent(id, "first", 2, first, TRACE_ID));
        awaitDeadLetter(jobId);
        try (Connection db = dev.jobweaver.api.testing.Database.connect(); PreparedStatement requeued =
                db.prepareStatement("UPDATE dead_letters SET state = 'REQUEUED', requeued_at = now(),"
                        + " requeue_count = 1 WHERE job_id = ?")) {
            requeued.setObject(1, id);
            assertThat(requeued.executeUpdate()).isEqualTo(1);
        }

        Instant second = first.plusSeconds(30);
        send(new DeadLetterEvent(id, "second", 1, second, TRACE_ID));

        await().atMost(Duration.ofSeconds(30)).until(() -> "OPEN".equals(DeadLetters.row(jobId).get("state")));
        JsonPath reopened = deadLetter(jobId);
        assertThat(reopened.getString("reason")).isEqualTo("second");
        assertThat(Instant.parse(reopened.getString("failedAt"))).isEqualTo(second);
        assertThat(reopened.getInt("deadCount")).isEqualTo(2);
        assertThat(reopened.getInt("attempts")).as("numbered on across the requeue: 3 + 2").isEqualTo(5);
        assertThat(reopened.getInt("requeueCount")).as("the requeue's history stays").isEqualTo(1);
        assertThat(reopened.getString("requeuedAt")).isNotNull();

        double repeated = Jobs.count(registry, "jobweaver.dead.letters.received", "result", "repeated");
        Map<String, String> before = DeadLetters.row(jobId);
        // an older failure and the same one again, in one poll, then a job the read model never had behind them
        String unknown = UUID.randomUUID().toString();
        KafkaProbe.sendAll(List.of(
                DeadLetters.record(mapper, new DeadLetterEvent(id, "older", 2, first.minusSeconds(10), TRACE_ID)),
                DeadLetters.record(mapper, new DeadLetterEvent(id, "second", 1, second, TRACE_ID)),
                DeadLetters.record(mapper, new DeadLetterEvent(UUID.fromString(unknown), "ghost", 0, second,
                        TRACE_ID))));
        await().atMost(Duration.ofSeconds(30)).until(() ->
                Jobs.count(registry, "jobweaver.dead.letters.received", "result", "repeated") >= repeated + 2);
        assertThat(DeadLetters.row(jobId)).isEqualTo(before);
        assertThat(DeadLetters.row(unknown)).as("a job the read model does not hold").isNull();
    }

    @Test
    void theSameDeadLetterTwiceIsStoredOnce() throws Exception {
        String jobId = Jobs.submitOne();
        DeadLetterEvent event = new DeadLetterEvent(UUID.fromString(jobId), "boom", 3, Instant.now(), TRACE_ID);
        double repeated = Jobs.count(registry, "jobweaver.dead.letters.received", "result", "repeated");

        KafkaProbe.sendAll(List.of(DeadLetters.record(mapper, event), DeadLetters.record(mapper, event)));
        awaitDeadLetter(jobId);
        send(event);

        await().atMost(Duration.ofSeconds(30)).until(() ->
                Jobs.count(registry, "jobweaver.dead.letters.received", "result", "repeated") >= repeated + 1);
        assertThat(deadLetter(jobId).getInt("deadCount")).isEqualTo(1);
    }

    @Test
    void aMalformedRecordIsQuarantinedAndTheDeadLetterBehindItStored() throws Exception {
        String jobId = Jobs.submitOne();
        double unreadable = quarantine.count(Topics.JOB_DEAD_LETTER, QuarantineReason.UNREADABLE);
        double invalid = quarantine.count(Topics.JOB_DEAD_LETTER, QuarantineReason.INVALID);
        DeadLetterEvent good = new DeadLetterEvent(UUID.fromString(jobId), "boom", 1, Instant.now(), TRACE_ID);

        KafkaProbe.sendAll(List.of(
                new ProducerRecord<>(Topics.JOB_DEAD_LETTER, jobId, "{not json".getBytes(StandardCharsets.UTF_8)),
                // no failedAt
                new ProducerRecord<>(Topics.JOB_DEAD_LETTER, jobId,
                        "{\"jobId\":\"%s\",\"reason\":\"x\",\"finalRetryCount\":1}".formatted(jobId)
                                .getBytes(StandardCharsets.UTF_8)),
                // keyed by another job: could overtake that job's dead letters
                new ProducerRecord<>(Topics.JOB_DEAD_LETTER, UUID.randomUUID().toString(),
                        DeadLetters.record(mapper, good).value()),
                DeadLetters.record(mapper, good)));

        awaitDeadLetter(jobId);
        // the record keyed by another job sits on another partition, read in its own poll
        await().atMost(Duration.ofSeconds(30)).until(() ->
                quarantine.count(Topics.JOB_DEAD_LETTER, QuarantineReason.UNREADABLE) == unreadable + 1
                        && quarantine.count(Topics.JOB_DEAD_LETTER, QuarantineReason.INVALID) == invalid + 2);
        assertThat(deadLetter(jobId).getInt("deadCount")).isEqualTo(1);
    }

    private void send(DeadLetterEvent event) {
        ProducerRecord<String, byte[]> record = DeadLetters.record(mapper, event);
        KafkaProbe.send(record.topic(), record.key(), record.value());
    }

    private static JsonPath awaitDeadLetter(String jobId) {
        await().atMost(Duration.ofSeconds(30)).until(() -> DeadLetters.row(jobId) != null);
        return deadLetter(jobId);
    }

    private static JsonPath deadLetter(String jobId) {
        return io.restassured.RestAssured.given().get("/api/dead-letters/" + jobId).then().statusCode(200)
                .extract().jsonPath();
    }
}
