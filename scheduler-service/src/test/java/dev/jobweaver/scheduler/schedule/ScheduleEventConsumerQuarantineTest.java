package dev.jobweaver.scheduler.schedule;

import static dev.jobweaver.scheduler.testing.PoisonRecords.reason;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.event.ScheduleEvent;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.QuarantineReason;
import dev.jobweaver.common.schedule.Misfire;
import dev.jobweaver.common.schedule.Overlap;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.testing.QuarantineTopic.Position;
import dev.jobweaver.scheduler.testing.PoisonRecords.BadRecords;
import dev.jobweaver.scheduler.testing.ScheduleKafkaTest;
import dev.jobweaver.scheduler.testing.TestSchedules;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * Records of {@code schedules} that are no usable schedule (not JSON, breaking a rule, keyed by another id, a tombstone
 * whose key is no scheduleId) are quarantined, and the good record behind them on the same partition is applied.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class ScheduleEventConsumerQuarantineTest extends ScheduleKafkaTest {

    @Test
    void badRecordsAreQuarantinedAndTheGoodOneBehindThemIsApplied() {
        UUID bad = UUID.randomUUID();
        UUID good = UUID.randomUUID();
        ScheduleEvent halfSecond = TestSchedules.interval(bad, 1, "PT0.5S", Instant.now(), Misfire.SKIP, Overlap.ALLOW);
        ScheduleEvent wrongKey = TestSchedules.interval(bad, 1, "PT1H", Instant.now(), Misfire.SKIP, Overlap.ALLOW);
        BadRecords sent = BadRecords.produce(producer, Topics.SCHEDULES, bad, jsonBytes(halfSecond),
                jsonBytes(wrongKey));
        long badTombstone = producer.sendRaw(Topics.SCHEDULES, 1, "not-a-schedule", null);
        producer.sendRaw(Topics.SCHEDULES, 1, good.toString(), jsonBytes(TestSchedules.interval(good, 1, "PT1H",
                Instant.now(), Misfire.SKIP, Overlap.ALLOW)));
        schedules.track(good);

        schedules.awaitTimer(good, t -> t.schedule().version() == 1);

        assertThat(schedules.timer(bad)).isNull();
        Map<Position, ConsumerRecord<String, byte[]>> copies = sent.assertQuarantined(bootstrapServers, "interval",
                "scheduleId", badTombstone);
        assertThat(reason(copies.get(sent.at(badTombstone)))).isEqualTo(QuarantineReason.INVALID.name());
        assertThat(copies.get(sent.at(badTombstone)).value()).isNullOrEmpty();
    }
}
