package dev.jobweaver.api.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.api.testing.KafkaProbe;
import dev.jobweaver.api.testing.PerClassSettings;
import dev.jobweaver.api.testing.StatusEvents;
import dev.jobweaver.common.event.JobStatusChangedEvent;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The read model holds a job's non-terminal status back: a {@code RUNNING} followed by its {@code COMPLETED} within the
 * hold updates the row once, and a held status is written when the hold has passed; a poll with a held status is not
 * committed until that status is written or replaced. The profile holds for 5 s and commits offsets every 200 ms.
 */
@QuarkusTest
@TestProfile(PerClassSettings.class)
@JobWeaverTest(database = "jobweaver_api")
class JobStatusHoldTest {

    private static final Duration HOLD = PerClassSettings.STATUS_HOLD;
    private static final String GROUP = "jobweaver-api";

    @Inject
    ObjectMapper mapper;

    @Inject
    MeterRegistry registry;

    @Test
    void aRunningStatusFollowedByItsCompletionUpdatesTheRowOnceAndIsCommittedOnlyThen() {
        List<String> jobIds = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            jobIds.add(Jobs.submitOne());
        }
        double appliedBefore = Jobs.count(registry, "jobweaver.status.events", "result", "applied");
        Map<Integer, Long> before = KafkaProbe.endOffsets(Topics.JOB_STATUS);

        long sent = System.nanoTime();
        StatusEvents.sendAll(mapper, events(jobIds, JobStatus.RUNNING, 1));
        Map<Integer, Long> afterRunning = KafkaProbe.endOffsets(Topics.JOB_STATUS);
        await().atMost(Duration.ofSeconds(20)).until(() -> held() >= jobIds.size());

        for (String jobId : jobIds) {
            assertThat(Jobs.get(jobId).getString("status")).as("%s while its RUNNING is held", jobId)
                    .isEqualTo("PENDING");
        }
        // Offsets read while every row still shows PENDING were read before any held status was written, whatever
        // the machine's pace: the rows are looked at after the offsets. Sampled until half the hold has passed, so
        // that the COMPLETEDs below arrive while the RUNNINGs are still held.
        long sampledUntil = sent + HOLD.dividedBy(2).toNanos();
        int whileHeld = 0;
        do {
            Map<Integer, Long> committed = KafkaProbe.committedOffsets(GROUP, Topics.JOB_STATUS);
            if (!jobIds.stream().allMatch(id -> "PENDING".equals(Jobs.get(id).getString("status")))) {
                break;
            }
            assertThat(uncommitted(before, afterRunning, committed))
                    .as("partitions with a held status, not committed up to their end while it is held")
                    .isEqualTo(receiving(before, afterRunning));
            whileHeld++;
        } while (System.nanoTime() < sampledUntil);
        assertThat(whileHeld).as("offsets read while the statuses were held").isPositive();

        StatusEvents.sendAll(mapper, events(jobIds, JobStatus.COMPLETED, 2));
        Map<Integer, Long> afterCompleted = KafkaProbe.endOffsets(Topics.JOB_STATUS);

        await().atMost(Duration.ofSeconds(20)).until(() -> jobIds.stream()
                .allMatch(id -> "COMPLETED".equals(Jobs.get(id).getString("status"))));
        // counted just after the commit that the rows show
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(Jobs.count(registry, "jobweaver.status.events", "result", "applied") - appliedBefore)
                    .as("row updates: one per job, the COMPLETED; the held RUNNING was never written")
                    .isEqualTo(jobIds.size());
            assertThat(held()).isZero();
        });
        await().atMost(Duration.ofSeconds(20)).until(() -> allCommittedTo(afterCompleted));
    }

    @Test
    void aHeldStatusIsWrittenWhenTheHoldHasPassed() {
        String jobId = Jobs.submitOne();
        long sent = System.nanoTime();

        StatusEvents.send(mapper, jobId, JobStatus.RUNNING, 1, 1, null);
        Map<Integer, Long> afterRunning = KafkaProbe.endOffsets(Topics.JOB_STATUS);
        await().atMost(Duration.ofSeconds(20)).until(() -> held() >= 1);

        await().atMost(Duration.ofSeconds(20)).until(() -> "RUNNING".equals(Jobs.get(jobId).getString("status")));
        assertThat(Duration.ofNanos(System.nanoTime() - sent)).as("visible only after the hold").isGreaterThan(HOLD);
        assertThat(Jobs.get(jobId).getInt("attempts")).isEqualTo(1);
        assertThat(held()).isZero();
        await().atMost(Duration.ofSeconds(20)).until(() -> allCommittedTo(afterRunning));
    }

    private double held() {
        Gauge gauge = registry.find("jobweaver.status.held").gauge();
        return gauge == null ? -1 : gauge.value();
    }

    private static List<JobStatusChangedEvent> events(List<String> jobIds, JobStatus status, long version) {
        return jobIds.stream().map(id -> StatusEvents.event(id, status, version, 1, null)).toList();
    }

    /** The partitions that received records between {@code before} and {@code after}. */
    private static Set<Integer> receiving(Map<Integer, Long> before, Map<Integer, Long> after) {
        return after.entrySet().stream()
                .filter(end -> end.getValue() > before.getOrDefault(end.getKey(), 0L))
                .map(Map.Entry::getKey)
                .collect(Collectors.toSet());
    }

    /** Of the partitions {@link #receiving} records, those that {@code committed} does not cover up to their end. */
    private static Set<Integer> uncommitted(Map<Integer, Long> before, Map<Integer, Long> after,
                                            Map<Integer, Long> committed) {
        return receiving(before, after).stream()
                .filter(partition -> committed.getOrDefault(partition, 0L) < after.get(partition))
                .collect(Collectors.toSet());
    }

    /** Every partition is committed up to at least {@code ends}. */
    private static boolean allCommittedTo(Map<Integer, Long> ends) {
        Map<Integer, Long> committed = KafkaProbe.committedOffsets(GROUP, Topics.JOB_STATUS);
        return ends.entrySet().stream().allMatch(end -> committed.getOrDefault(end.getKey(), 0L) >= end.getValue());
    }
}
