package dev.jobweaver.scheduler.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.event.ScheduleEvent;
import dev.jobweaver.common.schedule.Misfire;
import dev.jobweaver.common.schedule.Overlap;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Where a new, changed or resumed timer's next tick starts: after the change as the API stored it. */
class ScheduleServiceApplyTest {

    private static final UUID ID = UUID.randomUUID();
    private static final Instant NOW = Instant.parse("2026-11-26T08:00:10Z");

    private static ScheduleEvent event(long version, String interval, Instant anchor, boolean paused,
                                       Instant changedAt) {
        return new ScheduleEvent(ID, version, null, interval, "UTC", anchor, Misfire.FIRE_ONCE, Overlap.ALLOW, paused,
                "default", changedAt);
    }

    @Test
    void aNewScheduleSeenLateKeepsTheTicksSinceItWasStored() {
        Instant created = NOW.minusSeconds(3);
        ScheduleTimer timer = ScheduleService.apply(null, event(1, "PT1S", created, false, created), NOW);
        assertThat(timer.nextRunAt()).as("its first tick, now overdue").isEqualTo(created.plusSeconds(1));
    }

    @Test
    void aChangeStampedAheadOfTheDatabasesClockStartsFromNow() {
        Instant anchor = NOW.minusMillis(500);
        ScheduleTimer timer = ScheduleService.apply(null, event(1, "PT1S", anchor, false, NOW.plusSeconds(30)), NOW);
        assertThat(timer.nextRunAt()).isEqualTo(anchor.plusSeconds(1));
    }

    @Test
    void aResumedScheduleStartsAfterItsResumeAndAPausingKeepsTheNextTick() {
        Instant anchor = NOW.minusSeconds(600);
        ScheduleTimer running = ScheduleService.apply(null, event(1, "PT60S", anchor, false, anchor), NOW);
        ScheduleTimer paused = ScheduleService.apply(running, event(2, "PT60S", anchor, true, NOW.minusSeconds(300)),
                NOW);
        assertThat(paused.nextRunAt()).isEqualTo(running.nextRunAt());

        Instant resumedAt = NOW.minusSeconds(90);
        ScheduleTimer resumed = ScheduleService.apply(paused, event(3, "PT60S", anchor, false, resumedAt), NOW);
        assertThat(resumed.nextRunAt()).as("the first tick after the resume, not the ticks of the pause")
                .isEqualTo(anchor.plusSeconds(60 * 9));
        assertThat(ScheduleService.apply(resumed, event(2, "PT1S", anchor, true, NOW), NOW)).as("an older version")
                .isSameAs(resumed);
    }
}
