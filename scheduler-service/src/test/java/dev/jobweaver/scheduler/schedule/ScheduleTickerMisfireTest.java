package dev.jobweaver.scheduler.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.event.ScheduleFiredEvent;
import dev.jobweaver.common.schedule.Misfire;
import dev.jobweaver.common.schedule.Overlap;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.scheduler.testing.ScheduleKafkaTest;
import dev.jobweaver.scheduler.testing.TestSchedules;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A schedule whose next tick is far in the past (every replica was down for an hour) misfires: {@code FIRE_ONCE}
 * fires one catch-up job for the latest missed tick, {@code SKIP} none, and both go on from the next tick.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class ScheduleTickerMisfireTest extends ScheduleKafkaTest {

    private static final Duration EVERY = Duration.ofSeconds(2);

    @Inject
    ScheduleTicker ticker;

    @Test
    void fireOnceFiresOneCatchUpForTheLatestMissedTickThenTheTicksToCome() {
        Downtime down = stoppedForAnHour(Misfire.FIRE_ONCE);

        List<ScheduleFiredEvent> fired = schedules.awaitFired(down.scheduleId(), 3, Duration.ofSeconds(30));
        ScheduleFiredEvent catchUp = fired.getFirst();
        assertThat(catchUp.catchUp()).isTrue();
        // The latest tick due when the round ran, on the schedule's grid.
        assertThat(catchUp.scheduledFor()).isAfter(down.end().minus(EVERY)).isBefore(down.end().plus(EVERY));
        assertThat(Duration.between(down.anchor(), catchUp.scheduledFor()).toMillis() % EVERY.toMillis()).isZero();
        List<ScheduleFiredEvent> after = fired.subList(1, fired.size());
        assertThat(after).noneMatch(ScheduleFiredEvent::catchUp);
        for (int i = 0; i < after.size(); i++) {
            assertThat(after.get(i).scheduledFor()).isEqualTo(catchUp.scheduledFor().plus(EVERY.multipliedBy(i + 1)));
        }
        assertThat(ticks("catch-up") - down.catchUpsBefore()).isEqualTo(1.0);
        // An hour of two-second ticks, less the one the catch-up stands for.
        assertThat(ticks("skipped-misfire") - down.missedBefore()).isGreaterThanOrEqualTo(1_790);
    }

    @Test
    void skipFiresNothingForTheMissedTicksAndGoesOnFromTheNextTick() {
        Downtime down = stoppedForAnHour(Misfire.SKIP);

        List<ScheduleFiredEvent> fired = schedules.awaitFired(down.scheduleId(), 2, Duration.ofSeconds(30));
        assertThat(fired).noneMatch(ScheduleFiredEvent::catchUp);
        assertThat(fired.getFirst().scheduledFor()).isAfter(down.end());
        assertThat(fired.get(1).scheduledFor()).isEqualTo(fired.getFirst().scheduledFor().plus(EVERY));
        assertThat(ticks("catch-up") - down.catchUpsBefore()).isZero();
        assertThat(ticks("skipped-misfire") - down.missedBefore()).isGreaterThanOrEqualTo(1_790);
    }

    /**
     * A schedule stopped for an hour.
     *
     * @param anchor         the origin of its two-second ticks, an hour ago
     * @param end            the instant before its next tick was set an hour back
     * @param missedBefore   the skipped-misfire ticks counted before it was stored
     * @param catchUpsBefore the catch-up ticks counted before it was stored
     */
    private record Downtime(UUID scheduleId, Instant anchor, Instant end, double missedBefore, double catchUpsBefore) {
    }

    /**
     * A two-second schedule stored paused (so it fires nothing yet), then resumed in the database with its next tick
     * an hour old, as if every replica had been down since; the ticker is woken.
     */
    private Downtime stoppedForAnHour(Misfire misfire) {
        double missedBefore = ticks("skipped-misfire");
        double catchUpsBefore = ticks("catch-up");
        UUID scheduleId = UUID.randomUUID();
        Instant anchor = Instant.now().truncatedTo(ChronoUnit.SECONDS).minus(Duration.ofHours(1));
        schedules.publish(TestSchedules.paused(TestSchedules.interval(scheduleId, 1, "PT2S", anchor, misfire,
                Overlap.ALLOW), 1, true));
        schedules.awaitTimer(scheduleId, t -> t.schedule().paused());
        Instant downtimeEnd = Instant.now();
        schedules.update("UPDATE schedule_timers SET paused = false, next_run_at = $2 WHERE schedule_id = $1",
                scheduleId, anchor.plus(EVERY).atOffset(java.time.ZoneOffset.UTC));
        ticker.wake();
        return new Downtime(scheduleId, anchor, downtimeEnd, missedBefore, catchUpsBefore);
    }
}
