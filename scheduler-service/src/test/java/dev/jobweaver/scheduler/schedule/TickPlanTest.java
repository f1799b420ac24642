package dev.jobweaver.scheduler.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.schedule.Misfire;
import dev.jobweaver.common.schedule.Overlap;
import dev.jobweaver.common.schedule.ScheduleClock;
import dev.jobweaver.scheduler.schedule.TickPlan.Tick;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The rules of one schedule in one round: ticks due fire each, capped; misfire and overlap. */
class TickPlanTest {

    private static final Instant ANCHOR = Instant.parse("2026-11-26T00:00:00Z");
    private static final ScheduleClock EVERY_SECOND = ScheduleClock.of(null, "PT1S", null, ANCHOR);
    private static final Duration SECOND = Duration.ofSeconds(1);
    private static final Duration THRESHOLD = Duration.ofSeconds(60);

    @Test
    void ticksWithinTheThresholdFireEachAsThemselvesAndTheNextIsTheFirstNotDue() {
        Instant now = ANCHOR.plusMillis(10_500);

        TickPlan plan = everySecond(ANCHOR.plusSeconds(8), now, Misfire.FIRE_ONCE, Overlap.ALLOW, false);

        assertThat(plan.fire()).containsExactly(new Tick(ANCHOR.plusSeconds(8), false),
                new Tick(ANCHOR.plusSeconds(9), false), new Tick(ANCHOR.plusSeconds(10), false));
        assertThat(plan.next()).isEqualTo(ANCHOR.plusSeconds(11));
        assertThat(plan.more()).isFalse();
        assertThat(plan.skippedOverlap()).isZero();
        assertThat(plan.skippedMisfire()).isZero();
    }

    @Test
    void aRoundFiresAtMostTheCapAndLeavesTheRestDue() {
        Instant now = ANCHOR.plusSeconds(50);

        TickPlan plan = TickPlan.of(EVERY_SECOND, SECOND, ANCHOR.plusSeconds(1), now,
                Misfire.FIRE_ONCE, Overlap.ALLOW, false, THRESHOLD, 20);

        assertThat(plan.fire()).hasSize(20);
        assertThat(plan.fire().getLast().scheduledFor()).isEqualTo(ANCHOR.plusSeconds(20));
        assertThat(plan.next()).isEqualTo(ANCHOR.plusSeconds(21));
        assertThat(plan.more()).isTrue();
    }

    static Stream<Arguments> misfires() {
        return Stream.of(
                Arguments.of(Misfire.FIRE_ONCE, ANCHOR.plusSeconds(3_600).plusMillis(400),
                        List.of(new Tick(ANCHOR.plusSeconds(3_600), true)), 3_599L, ANCHOR.plusSeconds(3_601)),
                Arguments.of(Misfire.SKIP, ANCHOR.plusSeconds(7_200).plusMillis(900), List.of(), 7_200L,
                        ANCHOR.plusSeconds(7_201)));
    }

    /** FIRE_ONCE fires one catch-up for the latest missed tick, SKIP fires none; both go on from the next tick. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("misfires")
    void missedTicksFollowTheMisfirePolicyAndGoOnFromTheNextTick(Misfire misfire, Instant now, List<Tick> fired,
                                                                 long skipped, Instant next) {
        TickPlan plan = everySecond(ANCHOR.plusSeconds(1), now, misfire, Overlap.ALLOW, false);

        assertThat(plan.fire()).isEqualTo(fired);
        assertThat(plan.skippedMisfire()).isEqualTo(skipped);
        assertThat(plan.next()).isEqualTo(next);
        assertThat(plan.more()).isFalse();
    }

    @Test
    void overlapSkipSkipsEveryDueTickWhileBusyAndFiresOnlyTheFirstWhenNot() {
        Instant now = ANCHOR.plusMillis(5_200);

        TickPlan busy = everySecond(ANCHOR.plusSeconds(2), now, Misfire.FIRE_ONCE, Overlap.SKIP, true);
        TickPlan free = everySecond(ANCHOR.plusSeconds(2), now, Misfire.FIRE_ONCE, Overlap.SKIP, false);
        TickPlan allowed = everySecond(ANCHOR.plusSeconds(2), now, Misfire.FIRE_ONCE, Overlap.ALLOW, true);

        assertThat(busy.fire()).isEmpty();
        assertThat(busy.skippedOverlap()).isEqualTo(4);
        assertThat(busy.next()).isEqualTo(ANCHOR.plusSeconds(6));
        assertThat(free.fire()).containsExactly(new Tick(ANCHOR.plusSeconds(2), false));
        assertThat(free.skippedOverlap()).isEqualTo(3);
        assertThat(allowed.fire()).hasSize(4);
    }

    @Test
    void aBusyScheduleThatMisfiredCountsItsCatchUpAsSkippedByOverlap() {
        Instant now = ANCHOR.plusSeconds(600);

        TickPlan plan = everySecond(ANCHOR.plusSeconds(1), now, Misfire.FIRE_ONCE, Overlap.SKIP, true);

        assertThat(plan.fire()).isEmpty();
        assertThat(plan.skippedOverlap()).isEqualTo(1);
        assertThat(plan.skippedMisfire()).isEqualTo(599);
    }

    @Test
    void theLatestMissedTickOfADailyCronIsFoundWithoutWalkingEveryDay() {
        ZoneId amsterdam = ZoneId.of("Europe/Amsterdam");
        ScheduleClock daily = ScheduleClock.of("0 2 * * *", null, amsterdam.getId(), null);
        ScheduleClock minutely = ScheduleClock.of("* * * * *", null, "UTC", null);
        Instant first = ZonedDateTime.of(2026, 1, 1, 2, 0, 0, 0, amsterdam).toInstant();
        Instant now = ZonedDateTime.of(2026, 11, 26, 9, 30, 0, 0, amsterdam).toInstant();

        TickPlan plan = TickPlan.of(daily, null, first, now, Misfire.FIRE_ONCE, Overlap.ALLOW, false, THRESHOLD, 100);

        assertThat(plan.fire()).containsExactly(
                new Tick(ZonedDateTime.of(2026, 11, 26, 2, 0, 0, 0, amsterdam).toInstant(), true));
        assertThat(plan.skippedMisfire()).isEqualTo(329);
        assertThat(plan.next()).isEqualTo(ZonedDateTime.of(2026, 11, 27, 2, 0, 0, 0, amsterdam).toInstant());
        // A cron schedule's missed ticks are counted one by one, up to a bound.
        TickPlan daysOfMinutes = TickPlan.of(minutely, null, first, now, Misfire.SKIP, Overlap.ALLOW, false,
                THRESHOLD, 100);
        assertThat(daysOfMinutes.skippedMisfire()).isEqualTo(TickPlan.MISFIRE_COUNT_LIMIT);
    }

    /** A round of the one-second schedule under the threshold, with room for 100 ticks. */
    private static TickPlan everySecond(Instant next, Instant now, Misfire misfire, Overlap overlap, boolean busy) {
        return TickPlan.of(EVERY_SECOND, SECOND, next, now, misfire, overlap, busy, THRESHOLD, 100);
    }
}
