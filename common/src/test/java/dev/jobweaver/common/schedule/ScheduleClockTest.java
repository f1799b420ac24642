package dev.jobweaver.common.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ScheduleClockTest {

    private static final ZoneId AMSTERDAM = ZoneId.of("Europe/Amsterdam");

    /** The ticks of {@code clock} in [from, to). */
    private static List<Instant> ticks(ScheduleClock clock, Instant from, Instant to) {
        List<Instant> out = new ArrayList<>();
        Instant t = from.minusNanos(1);
        while ((t = clock.nextAfter(t)) != null && t.isBefore(to)) {
            out.add(t);
        }
        return out;
    }

    private static Instant amsterdam(int year, int month, int day, int hour, int minute) {
        return ZonedDateTime.of(year, month, day, hour, minute, 0, 0, AMSTERDAM).toInstant();
    }

    @Test
    void aFixedTimeInTheSpringForwardGapRunsOnceThatMuchLater() {
        ScheduleClock clock = ScheduleClock.of("30 2 * * *", null, "Europe/Amsterdam", null);
        // 2026-03-29: at 02:00 CET the clock jumps to 03:00 CEST; 02:30 does not exist.
        List<Instant> ticks = ticks(clock, amsterdam(2026, 3, 29, 0, 0), amsterdam(2026, 3, 30, 0, 0));
        assertThat(ticks).containsExactly(Instant.parse("2026-03-29T01:30:00Z")); // 03:30 CEST
        assertThat(ticks(clock, amsterdam(2026, 3, 28, 0, 0), amsterdam(2026, 3, 31, 0, 0))).containsExactly(
                Instant.parse("2026-03-28T01:30:00Z"), Instant.parse("2026-03-29T01:30:00Z"),
                Instant.parse("2026-03-30T00:30:00Z"));
    }

    @Test
    void aFixedTimeInTheRepeatedFallBackHourRunsOnceAtItsFirstOccurrence() {
        ScheduleClock clock = ScheduleClock.of("30 2 * * *", null, "Europe/Amsterdam", null);
        // 2026-10-25: at 03:00 CEST the clock goes back to 02:00 CET; 02:30 happens twice.
        assertThat(ticks(clock, amsterdam(2026, 10, 25, 0, 0), amsterdam(2026, 10, 26, 0, 0)))
                .containsExactly(Instant.parse("2026-10-25T00:30:00Z")); // 02:30 CEST
        // Asked from inside the second pass of the hour, the next tick is the next day's.
        assertThat(clock.nextAfter(Instant.parse("2026-10-25T01:15:00Z")))
                .isEqualTo(Instant.parse("2026-10-26T01:30:00Z"));
    }

    @Test
    void aWildcardScheduleFollowsRealTimeThroughBothChanges() {
        ScheduleClock hourly = ScheduleClock.of("@hourly", null, "Europe/Amsterdam", null);
        // Spring forward: 01:00 CET, then 03:00 CEST; no tick for the hour no clock shows.
        assertThat(ticks(hourly, Instant.parse("2026-03-29T00:00:00Z"), Instant.parse("2026-03-29T02:00:01Z")))
                .containsExactly(Instant.parse("2026-03-29T00:00:00Z"), Instant.parse("2026-03-29T01:00:00Z"),
                        Instant.parse("2026-03-29T02:00:00Z"));
        // Fall back: every real hour ticks, 02:00 twice.
        assertThat(ticks(hourly, Instant.parse("2026-10-24T23:00:00Z"), Instant.parse("2026-10-25T02:00:01Z")))
                .containsExactly(Instant.parse("2026-10-24T23:00:00Z"), Instant.parse("2026-10-25T00:00:00Z"),
                        Instant.parse("2026-10-25T01:00:00Z"), Instant.parse("2026-10-25T02:00:00Z"));
        ScheduleClock tenMinutes = ScheduleClock.of("*/10 * * * *", null, "Europe/Amsterdam", null);
        assertThat(ticks(tenMinutes, Instant.parse("2026-10-25T00:00:00Z"), Instant.parse("2026-10-25T02:00:00Z")))
                .hasSize(12);
    }

    @Test
    void fiveFieldsAreMinuteFirstAndSixFieldsSecondsFirst() {
        Instant from = Instant.parse("2026-01-05T10:00:00Z"); // a Monday
        assertThat(ScheduleClock.of("15 10 * * 1-5", null, "UTC", null).nextAfter(from))
                .isEqualTo(Instant.parse("2026-01-05T10:15:00Z"));
        assertThat(ScheduleClock.of("*/5 * * * * *", null, null, null).nextAfter(from))
                .isEqualTo(Instant.parse("2026-01-05T10:00:05Z"));
        assertThat(ScheduleClock.of("0 0 2 * * SUN", null, "UTC", null).nextAfter(from))
                .isEqualTo(Instant.parse("2026-01-11T02:00:00Z"));
        assertThat(ScheduleClock.of("0 9 * * MON", null, "Europe/Amsterdam", null).nextAfter(from))
                .isEqualTo(Instant.parse("2026-01-12T08:00:00Z"));
    }

    @Test
    void cronTicksFallOnWholeSecondsWhateverTheInstantAskedFrom() {
        Instant from = Instant.parse("2026-01-05T10:00:00.810588Z");
        assertThat(ScheduleClock.of("* * * * * *", null, "UTC", null).nextAfter(from))
                .isEqualTo(Instant.parse("2026-01-05T10:00:01Z"));
        assertThat(ScheduleClock.of("*/5 * * * *", null, "UTC", null).nextAfter(from))
                .isEqualTo(Instant.parse("2026-01-05T10:05:00Z"));
        assertThat(ScheduleClock.of("30 2 * * *", null, "Europe/Amsterdam", null)
                .nextAfter(Instant.parse("2026-01-05T01:29:59.999Z"))).isEqualTo(Instant.parse("2026-01-05T01:30:00Z"));
    }

    @ParameterizedTest
    @CsvSource({
            "@hourly, 2026-01-05T11:00:00Z",
            "@daily, 2026-01-06T00:00:00Z",
            "@midnight, 2026-01-06T00:00:00Z",
            "@weekly, 2026-01-11T00:00:00Z",
            "@monthly, 2026-02-01T00:00:00Z",
            "@yearly, 2027-01-01T00:00:00Z",
            "@DAILY, 2026-01-06T00:00:00Z"})
    void macrosAreTheirUsualExpressions(String macro, Instant next) {
        assertThat(ScheduleClock.of(macro, null, "UTC", null).nextAfter(Instant.parse("2026-01-05T10:30:00Z")))
                .isEqualTo(next);
    }

    @Test
    void anIntervalTicksFromItsAnchorWhateverTheWallClockDoes() {
        Instant anchor = Instant.parse("2026-03-29T00:59:30Z");
        ScheduleClock clock = ScheduleClock.of(null, "PT1H", "Europe/Amsterdam", anchor);
        assertThat(clock.nextAfter(anchor)).isEqualTo(anchor.plus(Duration.ofHours(1)));
        assertThat(clock.nextAfter(anchor.minusSeconds(3600))).isEqualTo(anchor.plus(Duration.ofHours(1)));
        assertThat(clock.nextAfter(anchor.plus(Duration.ofMinutes(61)))).isEqualTo(anchor.plus(Duration.ofHours(2)));
        assertThat(clock.nextAfter(anchor.plus(Duration.ofHours(2)))).isEqualTo(anchor.plus(Duration.ofHours(3)));
        ScheduleClock second = ScheduleClock.of(null, "PT1S", null, anchor);
        assertThat(ticks(second, anchor.plusMillis(1), anchor.plusSeconds(11))).hasSize(10);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "0 2 * *        |  | UTC              | has 4 fields",
            "61 2 * * *     |  | UTC              | cron '61 2 * * *' is not valid",
            "@fortnightly   |  | UTC              | not a known macro",
            "0 2 * * *      |  | Mars/Olympus     | timezone 'Mars/Olympus'",
            "               |  | UTC              | cron or interval is required",
            "               | PT0.5S | UTC        | at least 1 second",
            "               | 5 minutes | UTC     | not an ISO-8601 duration",
            "               | P400D | UTC         | at most 366 days",
            "0 2 * * *      | PT1M | UTC          | not both"})
    void aBadDefinitionIsRefusedNamingItsField(String cron, String interval, String zone, String message) {
        assertThatThrownBy(() -> ScheduleClock.of(cron, interval, zone, Instant.EPOCH))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message);
    }

    @Test
    void anExpressionThatNeverFiresAgainHasNoNextTick() {
        ScheduleClock feb30 = ScheduleClock.of("0 0 30 2 *", null, "UTC", null);
        assertThat(feb30.nextAfter(Instant.parse("2026-01-01T00:00:00Z"))).isNull();
    }
}
