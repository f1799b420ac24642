package dev.jobweaver.scheduler.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.event.ScheduleFiredEvent;
import dev.jobweaver.common.job.JobIds;
import dev.jobweaver.common.messaging.Headers;
import dev.jobweaver.common.schedule.Misfire;
import dev.jobweaver.common.schedule.Overlap;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.scheduler.testing.ScheduleKafkaTest;
import dev.jobweaver.scheduler.testing.TestSchedules;
import dev.jobweaver.scheduler.testing.TopicRecorder;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * A one-second schedule fires each of its ticks once, in order, without a gap, from the ticker's own timer (the test
 * profile's backstop round never runs), each as a {@code schedule-fired} record keyed by scheduleId with the tick's
 * jobId, a name-based eventId and a trace of its own.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class ScheduleTickerTest extends ScheduleKafkaTest {

    private static final int TICKS = 10;

    @Test
    void aOneSecondScheduleFiresEveryTickExactlyOnceWithoutGaps() {
        double firedBefore = ticks("fired");
        UUID scheduleId = UUID.randomUUID();
        Instant anchor = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        schedules.publish(TestSchedules.interval(scheduleId, 1, "PT1S", anchor, Misfire.FIRE_ONCE, Overlap.ALLOW));

        ScheduleTimer stored = schedules.awaitTimer(scheduleId, t -> true);
        assertThat(stored.schedule().version()).isEqualTo(1);
        schedules.awaitFired(scheduleId, TICKS, Duration.ofSeconds(30));
        schedules.awaitRoundsRecorded(scheduleId);
        List<ScheduleFiredEvent> fired = schedules.fired(scheduleId);

        Map<Instant, Long> perTick = fired.stream().collect(Collectors.groupingBy(ScheduleFiredEvent::scheduledFor,
                Collectors.counting()));
        assertThat(perTick).as("records per tick").allSatisfy((tick, count) -> assertThat(count).as("%s", tick)
                .isEqualTo(1L));
        List<Instant> ticks = fired.stream().map(ScheduleFiredEvent::scheduledFor).sorted().toList();
        assertThat(ticks.getFirst()).isAfter(anchor);
        for (int i = 1; i < ticks.size(); i++) {
            assertThat(Duration.between(ticks.get(i - 1), ticks.get(i))).as("gap before tick %d", i)
                    .isEqualTo(Duration.ofSeconds(1));
        }
        for (ScheduleFiredEvent event : fired) {
            assertThat(event.scheduleId()).isEqualTo(scheduleId);
            assertThat(event.scheduleVersion()).isEqualTo(1);
            assertThat(event.jobId()).isEqualTo(JobIds.forTick(scheduleId, event.scheduledFor()));
            assertThat(event.catchUp()).isFalse();
            // Generous: a tick is due when its round starts; this only catches a ticker that waits for a poll.
            assertThat(Duration.between(event.scheduledFor(), event.firedAt())).as("lag of %s", event.scheduledFor())
                    .isBetween(Duration.ZERO, Duration.ofSeconds(1));
        }
        List<Long> lagMillis = fired.stream()
                .map(e -> Duration.between(e.scheduledFor(), e.firedAt()).toMillis()).sorted().toList();
        System.out.printf("schedule tick lag (firedAt - scheduledFor) over %d ticks: p50 %d ms, p99 %d ms, max %d ms%n",
                lagMillis.size(), percentile(lagMillis, 0.50), percentile(lagMillis, 0.99), lagMillis.getLast());

        assertThat(ticks("fired") - firedBefore).isGreaterThanOrEqualTo(fired.size());
        assertThat(registry.find("jobweaver.schedule.tick.lag").timer()).isNotNull();
        ScheduleTimer after = schedules.timer(scheduleId);
        assertThat(after.lastFiredFor()).isAfterOrEqualTo(ticks.getLast());
        assertThat(after.nextRunAt()).isAfter(after.lastFiredFor());
    }

    @Test
    void eachTickIsKeyedByItsScheduleWithANameBasedEventIdAndATraceOfItsOwn() {
        UUID scheduleId = UUID.randomUUID();
        schedules.publish(TestSchedules.interval(scheduleId, 1, "PT1S", Instant.now().truncatedTo(ChronoUnit.SECONDS),
                Misfire.FIRE_ONCE, Overlap.ALLOW));

        schedules.awaitFired(scheduleId, 2, Duration.ofSeconds(30));

        List<ConsumerRecord<String, byte[]>> records = schedules.records(scheduleId).subList(0, 2);
        Set<String> traces = new HashSet<>();
        for (ConsumerRecord<String, byte[]> record : records) {
            ScheduleFiredEvent event = value(record, ScheduleFiredEvent.class);
            assertThat(record.key()).isEqualTo(scheduleId.toString());
            assertThat(TopicRecorder.header(record, Headers.EVENT_ID))
                    .isEqualTo(ScheduleFiredPublisher.eventId(event.jobId()).toString());
            String traceparent = TopicRecorder.header(record, Headers.TRACEPARENT);
            assertThat(traceparent).matches("00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}");
            traces.add(traceparent.split("-")[1]);
        }
        assertThat(traces).as("one trace per tick").hasSize(2);
    }

    private static long percentile(List<Long> sorted, double p) {
        int index = (int) Math.ceil(p * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
    }

}
