package dev.jobweaver.scheduler.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.event.ScheduleEvent;
import dev.jobweaver.common.event.ScheduleFiredEvent;
import dev.jobweaver.common.job.JobIds;
import dev.jobweaver.common.messaging.Headers;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.schedule.Misfire;
import dev.jobweaver.common.schedule.Overlap;
import dev.jobweaver.scheduler.testing.ExecutableTest;
import dev.jobweaver.scheduler.testing.TopicRecorder;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A schedule published on {@code schedules} ticks in the native executable: a six-field cron expression in a named
 * zone (cron parsing and the zone rules at run time) and an ISO-8601 interval each fire their ticks on
 * {@code schedule-fired}, one second apart, keyed by the schedule, with the tick's job id and a trace of its own.
 */
@QuarkusIntegrationTest
@JobWeaverTest(database = "jobweaver_scheduler")
class ScheduleTickIT extends ExecutableTest {

    private TopicRecorder fired;
    private final List<UUID> published = new ArrayList<>();

    @BeforeEach
    void recordTicks() {
        fired = TopicRecorder.start(bootstrapServers(), Topics.SCHEDULE_FIRED);
    }

    /** Tombstones delete the timers, so that no schedule keeps ticking into the next test. */
    @AfterEach
    void deleteSchedules() throws InterruptedException {
        published.forEach(id -> producer.send(Topics.SCHEDULES, id, null, Map.of()));
        fired.close();
    }

    @Test
    void aCronScheduleInANamedZoneFiresEverySecond() {
        UUID scheduleId = publish("* * * * * *", null, "Europe/Amsterdam");

        assertTicksOneSecondApart(scheduleId);
    }

    @Test
    void anIntervalScheduleFiresEverySecond() {
        UUID scheduleId = publish(null, "PT1S", "UTC");

        assertTicksOneSecondApart(scheduleId);
    }

    private UUID publish(String cron, String interval, String zone) {
        UUID scheduleId = UUID.randomUUID();
        published.add(scheduleId);
        producer.sendJson(Topics.SCHEDULES, scheduleId, new ScheduleEvent(scheduleId, 1, cron, interval, zone,
                Instant.now().truncatedTo(ChronoUnit.SECONDS), Misfire.FIRE_ONCE, Overlap.ALLOW, false, "default",
                Instant.now()));
        return scheduleId;
    }

    private void assertTicksOneSecondApart(UUID scheduleId) {
        List<ConsumerRecord<String, byte[]>> records = fired.await(Topics.SCHEDULE_FIRED, scheduleId, 3,
                Duration.ofSeconds(30)).subList(0, 3);
        List<ScheduleFiredEvent> ticks = records.stream().map(r -> value(r, ScheduleFiredEvent.class)).toList();
        for (int i = 0; i < ticks.size(); i++) {
            ScheduleFiredEvent tick = ticks.get(i);
            assertThat(tick.scheduleId()).isEqualTo(scheduleId);
            assertThat(tick.scheduleVersion()).isEqualTo(1);
            assertThat(tick.jobId()).isEqualTo(JobIds.forTick(scheduleId, tick.scheduledFor()));
            assertThat(tick.catchUp()).isFalse();
            if (i > 0) {
                assertThat(Duration.between(ticks.get(i - 1).scheduledFor(), tick.scheduledFor()))
                        .as("gap before tick %d", i).isEqualTo(Duration.ofSeconds(1));
            }
            ConsumerRecord<String, byte[]> record = records.get(i);
            assertThat(record.key()).isEqualTo(scheduleId.toString());
            assertThat(TopicRecorder.header(record, Headers.EVENT_ID))
                    .isEqualTo(ScheduleFiredPublisher.eventId(tick.jobId()).toString());
            assertThat(TopicRecorder.header(record, Headers.TRACEPARENT))
                    .matches("00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}");
        }
    }
}
