package dev.jobweaver.api.job;

import dev.jobweaver.api.testing.ConsumerTestSupport;
import dev.jobweaver.testing.JobWeaverTest;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.api.testing.KafkaProbe;
import dev.jobweaver.api.testing.StatusEvents;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.QuarantineReason;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** job-status events update the read model; stale ones do not; malformed ones are quarantined and passed by. */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class JobStatusConsumerTest extends ConsumerTestSupport {

    @Test
    void statusEventUpdatesTheJobAndAStaleOneDoesNot() {
        String jobId = Jobs.submitOne();

        StatusEvents.send(mapper, jobId, JobStatus.RUNNING, 2, 1, null);
        await().atMost(Duration.ofSeconds(20)).until(() -> "RUNNING".equals(Jobs.get(jobId).getString("status")));
        JsonPath running = Jobs.get(jobId);
        assertThat(running.getInt("attempts")).isEqualTo(1);
        assertThat(running.getString("updatedAt")).isNotNull();

        double staleBefore = Jobs.count(registry, "jobweaver.status.events", "result", "stale");
        StatusEvents.send(mapper, jobId, JobStatus.FAILED, 1, 1, "stale failure");
        StatusEvents.send(mapper, jobId, JobStatus.RUNNING, 2, 1, "repeated");
        await().atMost(Duration.ofSeconds(20))
                .until(() -> Jobs.count(registry, "jobweaver.status.events", "result", "stale") >= staleBefore + 2);
        JsonPath after = Jobs.get(jobId);
        assertThat(after.getString("status")).isEqualTo("RUNNING");
        assertThat(after.getString("lastError")).isNull();

        StatusEvents.send(mapper, jobId, JobStatus.PENDING, 3, 1, "boom");
        await().atMost(Duration.ofSeconds(20)).until(() -> "PENDING".equals(Jobs.get(jobId).getString("status")));
        JsonPath retrying = Jobs.get(jobId);
        assertThat(retrying.getString("lastError")).isEqualTo("boom");
        assertThat(retrying.getString("nextRunAt")).isNotNull();
        assertThat(retrying.getInt("retryCount")).isZero();

        StatusEvents.send(mapper, jobId, JobStatus.FAILED, 5, 3, "final");
        await().atMost(Duration.ofSeconds(20)).until(() -> "FAILED".equals(Jobs.get(jobId).getString("status")));
        JsonPath failed = Jobs.get(jobId);
        assertThat(failed.getInt("attempts")).isEqualTo(3);
        assertThat(failed.getInt("retryCount")).isEqualTo(2);
        assertThat(failed.getString("finishedAt")).isNotNull();
    }

    @Test
    void malformedRecordIsQuarantinedAndTheNextOneApplied() {
        String jobId = Jobs.submitOne();
        double unreadableBefore = quarantine.count(Topics.JOB_STATUS, QuarantineReason.UNREADABLE);
        double invalidBefore = quarantine.count(Topics.JOB_STATUS, QuarantineReason.INVALID);

        KafkaProbe.send(Topics.JOB_STATUS, jobId, "{not json".getBytes(StandardCharsets.UTF_8));
        KafkaProbe.send(Topics.JOB_STATUS, jobId, "{\"status\":\"RUNNING\"}".getBytes(StandardCharsets.UTF_8));
        StatusEvents.send(mapper, jobId, JobStatus.COMPLETED, 4, 1, null);

        // the partition is not blocked: the valid event behind the bad ones is applied
        await().atMost(Duration.ofSeconds(20)).until(() -> "COMPLETED".equals(Jobs.get(jobId).getString("status")));
        // both were set aside before the poll that carried them was acknowledged, so before the COMPLETED was applied
        // (one poll) or in an earlier poll
        assertThat(quarantine.count(Topics.JOB_STATUS, QuarantineReason.UNREADABLE)).as("not JSON")
                .isEqualTo(unreadableBefore + 1);
        assertThat(quarantine.count(Topics.JOB_STATUS, QuarantineReason.INVALID)).as("no jobId")
                .isEqualTo(invalidBefore + 1);
    }
}
