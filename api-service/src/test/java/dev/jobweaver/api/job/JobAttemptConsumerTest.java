package dev.jobweaver.api.job;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.api.testing.ConsumerTestSupport;
import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.api.testing.KafkaProbe;
import dev.jobweaver.api.testing.Schedules;
import dev.jobweaver.api.testing.StatusEvents;
import dev.jobweaver.common.event.JobCompletedEvent;
import dev.jobweaver.common.event.JobFailedEvent;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.QuarantineReason;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;

/**
 * Every attempt the workers report on {@code job-completed} and {@code job-failed} becomes one entry of
 * {@code GET /api/jobs/{id}/attempts}: a report delivered twice is one entry, an attempt no worker reported shows
 * UNREPORTED, the one running now RUNNING, and a record that is no report is quarantined while the reports behind it
 * are stored.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class JobAttemptConsumerTest extends ConsumerTestSupport {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final String TRACE = "0af7651916cd43dd8448eb211c80319c";

    @Test
    void eachReportedAttemptIsOneEntryInOrderAndABadRecordIsQuarantined() {
        String jobId = Jobs.submitOne();
        UUID id = UUID.fromString(jobId);
        Instant start = Instant.parse("2026-11-26T10:00:00Z");
        double quarantinedBefore = quarantined(Topics.JOB_FAILED);

        KafkaProbe.sendAll(List.of(
                new ProducerRecord<>(Topics.JOB_FAILED, jobId, "{\"jobId\":".getBytes(StandardCharsets.UTF_8)),
                failed(id, 1, "boom", start, start.plusMillis(250)),
                failed(id, 1, "boom", start, start.plusMillis(250)),
                completed(id, 2, start.plusSeconds(5), start.plusSeconds(6))));
        StatusEvents.send(mapper, jobId, JobStatus.COMPLETED, 5, 2, "boom");

        // The reports and the status reach the API through different consumers, in any order: wait for all of them.
        JsonPath attempts = awaitAttempts(jobId, List.of("FAILED", "COMPLETED"), "COMPLETED");
        assertThat(attempts.getList("attempts.attempt", Integer.class)).containsExactly(1, 2);
        Map<String, Object> first = attempts.getMap("attempts[0]");
        assertThat(first).containsEntry("outcome", "FAILED").containsEntry("error", "boom")
                .containsEntry("durationMs", 250).containsEntry("workerId", "worker-a");
        assertThat(Instant.parse((String) first.get("startedAt"))).isEqualTo(start);
        assertThat(attempts.getMap("attempts[1]")).containsEntry("outcome", "COMPLETED").containsEntry("durationMs", 1000)
                .doesNotContainKey("error");
        await().atMost(TIMEOUT).until(() -> quarantined(Topics.JOB_FAILED) >= quarantinedBefore + 1);
    }

    @Test
    void anAttemptNoWorkerReportedIsUnreportedAndTheOneRunningNowRunning() {
        String jobId = Jobs.submitOne();
        UUID id = UUID.fromString(jobId);
        Instant start = Instant.now().minusSeconds(60);
        KafkaProbe.sendAll(List.of(failed(id, 2, "timed out", start, start.plusSeconds(1))));
        StatusEvents.send(mapper, jobId, JobStatus.RUNNING, 7, 3, "timed out");

        JsonPath attempts = awaitAttempts(jobId, List.of("UNREPORTED", "FAILED", "RUNNING"), "RUNNING");

        assertThat(attempts.getMap("attempts[0]")).containsOnlyKeys("attempt", "outcome");
    }

    @Test
    void aReportOfAJobTheApiDoesNotHoldIsDropped() {
        UUID unknown = UUID.randomUUID();
        String known = Jobs.submitOne();
        Instant start = Instant.now();
        KafkaProbe.sendAll(List.of(completed(unknown, 1, start, start.plusSeconds(1)),
                completed(UUID.fromString(known), 1, start, start.plusSeconds(1))));
        StatusEvents.send(mapper, known, JobStatus.COMPLETED, 5, 1, null);

        awaitAttempts(known, List.of("COMPLETED"), "COMPLETED");

        assertThat(given().get("/api/jobs/" + unknown + "/attempts").statusCode()).isEqualTo(404);
    }

    /**
     * The job's attempts once their outcomes are {@code outcomes} and its status is {@code status}: the reports, the
     * status and each topic's partitions reach the API through separate consumers and polls, in any order.
     */
    private static JsonPath awaitAttempts(String jobId, List<String> outcomes, String status) {
        JsonPath[] last = new JsonPath[1];
        try {
            await().atMost(TIMEOUT).until(() -> {
                last[0] = given().get("/api/jobs/" + jobId + "/attempts").then().statusCode(200).extract().jsonPath();
                return outcomes.equals(last[0].getList("attempts.outcome", String.class))
                        && status.equals(last[0].getString("status"));
            });
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("the attempts of " + jobId + " never became " + outcomes + " with status " + status
                    + "; last seen: " + (last[0] == null ? "nothing" : last[0].prettify()), e);
        }
        return last[0];
    }

    private double quarantined(String topic) {
        return Arrays.stream(QuarantineReason.values()).mapToDouble(r -> quarantine.count(topic, r)).sum();
    }

    private ProducerRecord<String, byte[]> failed(UUID jobId, int attempt, String error, Instant started,
                                                  Instant failed) {
        return new ProducerRecord<>(Topics.JOB_FAILED, jobId.toString(), Schedules.json(mapper,
                new JobFailedEvent(UUID.randomUUID(), jobId, attempt, TRACE, error, started, failed, "worker-a")));
    }

    private ProducerRecord<String, byte[]> completed(UUID jobId, int attempt, Instant started, Instant finished) {
        return new ProducerRecord<>(Topics.JOB_COMPLETED, jobId.toString(), Schedules.json(mapper,
                new JobCompletedEvent(UUID.randomUUID(), jobId, attempt, TRACE, started, finished, "worker-b", null)));
    }
}
