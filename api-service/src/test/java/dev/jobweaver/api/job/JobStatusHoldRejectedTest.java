package dev.jobweaver.api.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.api.testing.ConsumerTestSupport;
import dev.jobweaver.api.testing.Database;
import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.api.testing.KafkaProbe;
import dev.jobweaver.api.testing.PerClassSettings;
import dev.jobweaver.api.testing.StatusEvents;
import dev.jobweaver.common.event.JobStatusChangedEvent;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.QuarantineReason;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.testing.QuarantineTopic;
import dev.jobweaver.testing.QuarantineTopic.Position;
import io.micrometer.core.instrument.Gauge;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.Test;

/**
 * Of a job's statuses merged by the hold, only the one written can be refused by the database, and its record is the
 * one quarantined: a held status replaced by a newer one is neither written nor quarantined. The database refuses one
 * {@code lastError} for the test ({@link Database#refuseLastError}).
 */
@QuarkusTest
@TestProfile(PerClassSettings.class)
@JobWeaverTest(database = "jobweaver_api")
class JobStatusHoldRejectedTest extends ConsumerTestSupport {

    @Test
    void theRecordOfTheWrittenStatusIsQuarantinedNotTheOneItReplaced() throws Exception {
        Database.whileRefusingALastError(this::writtenIsQuarantined);
    }

    private void writtenIsQuarantined(String refusedError) {
        String refusedLater = Jobs.submitOne();
        String refusedFirst = Jobs.submitOne();
        double rejectedBefore = rejected();
        double heldBefore = held();

        // both RUNNINGs are held (the hold is long); the refused one of refusedFirst is replaced before it is due
        List<RecordMetadata> running = StatusEvents.sendAll(mapper, List.of(
                StatusEvents.event(refusedLater, JobStatus.RUNNING, 1, 1, null),
                StatusEvents.event(refusedFirst, JobStatus.RUNNING, 1, 1, refusedError)));
        await().atMost(Duration.ofSeconds(20)).until(() -> held() >= heldBefore + 2);
        JobStatusChangedEvent failed = StatusEvents.event(refusedLater, JobStatus.FAILED, 2, 1, refusedError);
        List<RecordMetadata> next = StatusEvents.sendAll(mapper, List.of(failed,
                StatusEvents.event(refusedFirst, JobStatus.COMPLETED, 2, 1, null)));
        Position failedAt = position(next.get(0));

        Map<Position, ConsumerRecord<String, byte[]>> found = QuarantineTopic.awaitQuarantined(
                KafkaProbe.bootstrapServers(), List.of(failedAt), Duration.ofSeconds(30));
        assertThat(found).as("the written FAILED of %s, at %s", refusedLater, failedAt).containsKey(failedAt);
        assertThat(found.get(failedAt).value()).isEqualTo(StatusEvents.json(mapper, failed));
        assertThat(found).as("the RUNNING of %s, replaced by the FAILED", refusedLater)
                .doesNotContainKey(position(running.get(0)));
        await().atMost(Duration.ofSeconds(20))
                .until(() -> "COMPLETED".equals(Jobs.get(refusedFirst).getString("status")));
        // a quarantine is counted before the write after it: had the replaced RUNNING been written, it would show here
        await().atMost(Duration.ofSeconds(10)).until(() -> rejected() >= rejectedBefore + 1);
        assertThat(rejected()).as("only the FAILED of %s", refusedLater).isEqualTo(rejectedBefore + 1);
        assertThat(found).doesNotContainKey(position(running.get(1)));
        assertThat(Jobs.get(refusedLater).getString("status")).isEqualTo("PENDING");
    }

    private double rejected() {
        return quarantine.count(Topics.JOB_STATUS, QuarantineReason.REJECTED_BY_DATABASE);
    }

    private double held() {
        Gauge gauge = registry.find("jobweaver.status.held").gauge();
        return gauge == null ? 0 : gauge.value();
    }

    private static Position position(RecordMetadata landed) {
        return new Position(landed.topic(), landed.partition(), landed.offset());
    }
}
