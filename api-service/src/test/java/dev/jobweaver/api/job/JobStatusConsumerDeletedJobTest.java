package dev.jobweaver.api.job;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.api.testing.ConsumerTestSupport;
import dev.jobweaver.api.testing.JobCommands;
import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.api.testing.KafkaProbe;
import dev.jobweaver.api.testing.StatusEvents;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.QuarantineReason;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.Test;

/**
 * What the scheduler publishes on job-status after a delete cannot bring the job back: the tombstone of its key is
 * skipped (and does not remove or alter a job either), and a late status of the deleted job updates nothing.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class JobStatusConsumerDeletedJobTest extends ConsumerTestSupport {

    private static final String GROUP = "jobweaver-api";

    @Test
    void aTombstoneIsSkippedWhetherTheJobIsDeletedOrNot() throws Exception {
        String deleted = deletedJob();
        String kept = Jobs.submitOne();
        double quarantined = quarantinedFromJobStatus();

        List<RecordMetadata> tombstones = KafkaProbe.sendAll(List.of(
                new ProducerRecord<>(Topics.JOB_STATUS, deleted, null),
                new ProducerRecord<>(Topics.JOB_STATUS, kept, null)));
        // both passed: their polls acknowledged, so the consumer neither stalled nor failed on them
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).until(() -> {
            Map<Integer, Long> committed = KafkaProbe.committedOffsets(GROUP, Topics.JOB_STATUS);
            return tombstones.stream().allMatch(t -> committed.getOrDefault(t.partition(), -1L) > t.offset());
        });
        // and what follows the kept job's tombstone in its partition is applied
        StatusEvents.send(mapper, kept, JobStatus.RUNNING, 2, 1, null);
        await().atMost(Duration.ofSeconds(20)).until(() -> "RUNNING".equals(Jobs.get(kept).getString("status")));

        assertThat(given().get("/api/jobs/" + deleted).statusCode()).as("the deleted job after its tombstone")
                .isEqualTo(404);
        assertThat(JobCommands.rows("jobs", "id", deleted)).isZero();
        assertThat(Jobs.get(kept).getInt("attempts")).as("the job whose key got a tombstone").isEqualTo(1);
        assertThat(quarantinedFromJobStatus()).as("tombstones quarantined").isEqualTo(quarantined);
    }

    @Test
    void aLateStatusOfADeletedJobDoesNotBringItBack() throws Exception {
        String deleted = deletedJob();
        double stale = Jobs.count(registry, "jobweaver.status.events", "result", "stale");

        StatusEvents.send(mapper, deleted, JobStatus.COMPLETED, 1000, 1, null);
        await().atMost(Duration.ofSeconds(20))
                .until(() -> Jobs.count(registry, "jobweaver.status.events", "result", "stale") >= stale + 1);

        assertThat(given().get("/api/jobs/" + deleted).statusCode()).isEqualTo(404);
        assertThat(JobCommands.rows("jobs", "id", deleted)).isZero();
    }

    /** A job submitted, finished and deleted through the API. */
    private static String deletedJob() throws Exception {
        String jobId = Jobs.submitOne();
        JobCommands.setStatus(jobId, JobStatus.COMPLETED);
        assertThat(JobCommands.delete(jobId).statusCode()).isEqualTo(204);
        return jobId;
    }

    private double quarantinedFromJobStatus() {
        return Arrays.stream(QuarantineReason.values()).mapToDouble(r -> quarantine.count(Topics.JOB_STATUS, r)).sum();
    }
}
