package dev.jobweaver.api.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.api.testing.StatusEvents;
import dev.jobweaver.common.event.JobStatusChangedEvent;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.testing.JobWeaverTest;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * job-status arrives in batches applied with one statement: many jobs in one batch all land, and of several events of
 * one job the highest version wins whatever their order.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class JobStatusConsumerBatchTest {

    @Inject
    ObjectMapper mapper;

    @Inject
    MeterRegistry registry;

    @Test
    void ofSeveralEventsOfOneJobTheHighestVersionWinsWhateverTheOrder() {
        String jobId = Jobs.submitOne();
        double staleBefore = Jobs.count(registry, "jobweaver.status.events", "result", "stale");

        // one partition (same key), so they arrive in this order, most likely in one poll
        StatusEvents.sendAll(mapper, List.of(
                StatusEvents.event(jobId, JobStatus.RUNNING, 2, 1, null),
                StatusEvents.event(jobId, JobStatus.PENDING, 4, 1, "first attempt failed"),
                StatusEvents.event(jobId, JobStatus.RUNNING, 3, 1, "late"),
                StatusEvents.event(jobId, JobStatus.RUNNING, 1, 1, "older")));

        // PENDING is not terminal, so it may be held back for jobweaver.api.status.hold before it is written (and a
        // submitted job reads PENDING already: its lastError is what shows the event was applied)
        await().atMost(Duration.ofSeconds(20))
                .until(() -> Jobs.count(registry, "jobweaver.status.events", "result", "stale") >= staleBefore + 3
                        && Jobs.get(jobId).getString("lastError") != null);
        JsonPath after = Jobs.get(jobId);
        assertThat(after.getString("status")).isEqualTo("PENDING");
        assertThat(after.getString("lastError")).isEqualTo("first attempt failed");
        assertThat(after.getString("nextRunAt")).isNotNull();
    }

    @Test
    void aBatchOfManyJobsIsAppliedToEveryJob() {
        List<String> jobIds = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            jobIds.add(Jobs.submitOne());
        }
        double appliedBefore = Jobs.count(registry, "jobweaver.status.events", "result", "applied");
        List<JobStatusChangedEvent> events = new ArrayList<>();
        for (String jobId : jobIds) {
            events.add(StatusEvents.event(jobId, JobStatus.RUNNING, 1, 1, null));
            events.add(StatusEvents.event(jobId, JobStatus.COMPLETED, 2, 1, null));
        }

        StatusEvents.sendAll(mapper, events);

        await().atMost(Duration.ofSeconds(30)).until(() -> jobIds.stream()
                .allMatch(id -> "COMPLETED".equals(Jobs.get(id).getString("status"))));
        for (String jobId : jobIds) {
            JsonPath completed = Jobs.get(jobId);
            assertThat(completed.getInt("attempts")).isEqualTo(1);
            assertThat(completed.getString("finishedAt")).as("finishedAt of %s", jobId).isNotNull();
        }
        assertThat(Jobs.count(registry, "jobweaver.status.events", "result", "applied"))
                .isGreaterThanOrEqualTo(appliedBefore + jobIds.size());
    }
}
