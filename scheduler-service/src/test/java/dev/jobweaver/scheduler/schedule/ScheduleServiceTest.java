package dev.jobweaver.scheduler.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.event.ScheduleEvent;
import dev.jobweaver.common.event.ScheduleFiredEvent;
import dev.jobweaver.common.schedule.Misfire;
import dev.jobweaver.common.schedule.Overlap;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.scheduler.testing.ScheduleKafkaTest;
import dev.jobweaver.scheduler.testing.TestSchedules;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The timers follow {@code schedules}: a paused schedule stops firing and a resumed one goes on from its next tick
 * without the ticks of its pause; an older version changes nothing; a changed clock starts again from now, any other
 * change keeps the next tick; a tombstone deletes the timer.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class ScheduleServiceTest extends ScheduleKafkaTest {

    @Test
    void aPausedScheduleStopsFiringAndAResumedOneGoesOnFromItsNextTickWithoutThePausedTicks() throws Exception {
        UUID scheduleId = UUID.randomUUID();
        ScheduleEvent v1 = TestSchedules.interval(scheduleId, 1, "PT1S", Instant.now().truncatedTo(ChronoUnit.SECONDS),
                Misfire.FIRE_ONCE, Overlap.ALLOW);
        schedules.publish(v1);
        schedules.awaitFired(scheduleId, 2, Duration.ofSeconds(30));

        schedules.publish(TestSchedules.paused(v1, 2, true));
        schedules.awaitTimer(scheduleId, t -> t.schedule().paused());
        Instant paused = Instant.now();
        Thread.sleep(2_500);
        int firedBeforeResume = schedules.fired(scheduleId).size();
        Instant resumed = Instant.now();
        schedules.publish(TestSchedules.paused(v1, 3, false));

        List<ScheduleFiredEvent> fired = schedules.awaitFired(scheduleId, firedBeforeResume + 2, Duration.ofSeconds(30));
        assertThat(fired).as("nothing fired for the ticks of the pause")
                .noneMatch(e -> e.scheduledFor().isAfter(paused) && e.scheduledFor().isBefore(resumed));
        List<ScheduleFiredEvent> afterResume = fired.subList(firedBeforeResume, fired.size());
        assertThat(afterResume).allMatch(e -> e.scheduledFor().isAfter(resumed) && e.scheduleVersion() == 3);
        assertThat(afterResume).noneMatch(ScheduleFiredEvent::catchUp);
        assertThat(afterResume.get(1).scheduledFor()).isEqualTo(afterResume.getFirst().scheduledFor().plusSeconds(1));
    }

    @Test
    void anOlderVersionChangesNothingAndANewerOneKeepsOrMovesTheNextTick() {
        UUID scheduleId = UUID.randomUUID();
        UUID sentinel = UUID.randomUUID();
        Instant anchor = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        ScheduleEvent v5 = TestSchedules.interval(scheduleId, 5, "PT1H", anchor, Misfire.FIRE_ONCE, Overlap.ALLOW);
        ScheduleEvent v3 = TestSchedules.interval(scheduleId, 3, "PT1S", anchor, Misfire.SKIP, Overlap.SKIP);
        // The sentinel is on the same partition, behind them: once it is stored, both were applied.
        schedules.publishTogether(List.of(v5, v3, TestSchedules.interval(sentinel, 1, "PT1H", anchor,
                Misfire.FIRE_ONCE, Overlap.ALLOW)));
        schedules.awaitTimer(sentinel, t -> true);

        ScheduleTimer stored = schedules.timer(scheduleId);
        assertThat(stored.schedule().version()).isEqualTo(5);
        assertThat(stored.schedule().interval()).isEqualTo("PT1H");
        assertThat(stored.schedule().misfire()).isEqualTo(Misfire.FIRE_ONCE);
        assertThat(stored.nextRunAt()).isEqualTo(anchor.plus(Duration.ofHours(1)));

        // A newer version that changes only the overlap rule keeps the next tick.
        schedules.publish(new ScheduleEvent(scheduleId, 6, null, "PT1H", "UTC", anchor, Misfire.FIRE_ONCE,
                Overlap.SKIP, false, "default", Instant.now()));
        ScheduleTimer v6 = schedules.awaitTimer(scheduleId, t -> t.schedule().version() == 6);
        assertThat(v6.schedule().overlap()).isEqualTo(Overlap.SKIP);
        assertThat(v6.nextRunAt()).isEqualTo(stored.nextRunAt());

        // One that changes the clock starts it again from now.
        Instant newAnchor = anchor.plusSeconds(600);
        schedules.publish(new ScheduleEvent(scheduleId, 7, null, "PT30M", "UTC", newAnchor, Misfire.FIRE_ONCE,
                Overlap.SKIP, false, "default", Instant.now()));
        ScheduleTimer v7 = schedules.awaitTimer(scheduleId, t -> t.schedule().version() == 7);
        assertThat(v7.schedule().interval()).isEqualTo("PT30M");
        assertThat(v7.nextRunAt()).isEqualTo(newAnchor.plus(Duration.ofMinutes(30)));
    }

    @Test
    void aTombstoneDeletesTheTimer() {
        UUID scheduleId = UUID.randomUUID();
        schedules.publish(TestSchedules.interval(scheduleId, 1, "PT1H", Instant.now(), Misfire.SKIP, Overlap.ALLOW));
        schedules.awaitTimer(scheduleId, t -> true);

        schedules.tombstone(scheduleId);

        schedules.awaitNoTimer(scheduleId);
    }
}
