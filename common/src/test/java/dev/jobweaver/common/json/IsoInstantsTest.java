package dev.jobweaver.common.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link IsoInstants}: the instant {@link Instant#parse} finds for every text it accepts, null for the rest; and the
 * text {@link Instant#toString()} prints for every instant it writes.
 */
class IsoInstantsTest {

    /** 0001-01-01 to 9999-12-31. */
    private static final long FIRST = Instant.parse("0001-01-01T00:00:00Z").getEpochSecond();
    private static final long LAST = Instant.parse("9999-12-31T23:59:59Z").getEpochSecond();
    private static final long YEAR_ZERO = Instant.parse("0000-01-01T00:00:00Z").getEpochSecond();

    @Test
    void readsWhatInstantToStringPrintsAtEveryPrecision() {
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 20_000; i++) {
            long second = random.nextLong(FIRST, LAST + 1);
            int nanos = switch (i % 4) {
                case 0 -> 0;
                case 1 -> random.nextInt(1000) * 1_000_000;
                case 2 -> random.nextInt(1_000_000) * 1_000;
                default -> random.nextInt(1_000_000_000);
            };
            Instant instant = Instant.ofEpochSecond(second, nanos);

            assertThat(IsoInstants.parse(instant.toString())).as(instant.toString()).isEqualTo(instant);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"1970-01-01T00:00:00Z", "2026-11-21T17:53:07.1Z", "2024-02-29T23:59:59.123456789Z",
            "2026-11-21T17:53:07.12Z", "0000-01-01T00:00:00Z", "2026-12-31T00:00:00.0000Z"})
    void agreesWithInstantParseOnFractionsOfAnyLengthAndTheEdgesOfTheCalendar(String text) {
        assertThat(IsoInstants.parse(text)).isEqualTo(Instant.parse(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "2026-11-21", "2026-11-21T17:53Z", "2026-11-21T17:53:07", "2026-11-21T17:53:07+02:00",
            "2026-11-21t17:53:07z", "2026-11-21 17:53:07Z", "2026-02-30T00:00:00Z", "2026-13-01T00:00:00Z",
            "2026-11-21T24:00:00Z", "2026-11-21T17:60:00Z", "2026-12-31T23:59:60Z", "2026-11-21T17:53:07.Z",
            "2026-11-21T17:53:07.1234567890Z", "2026-11-21T17:53:07,5Z", "2026-1a-21T17:53:07Z", "+12026-11-21T17:53:07Z",
            "2026-11-21T17:53:07.12a4Z"})
    void leavesEveryOtherShapeToTheFullParser(String text) {
        assertThat(IsoInstants.parse(text)).isNull();
    }

    @Test
    void nullIsNotAnInstant() {
        assertThat(IsoInstants.parse(null)).isNull();
    }

    @Test
    void writesWhatInstantToStringPrintsAtEveryPrecision() {
        SplittableRandom random = new SplittableRandom(11);
        char[] into = new char[IsoInstants.MAX_LENGTH];
        for (int i = 0; i < 20_000; i++) {
            long second = random.nextLong(YEAR_ZERO, LAST + 1);
            int nanos = switch (i % 5) {
                case 0 -> 0;
                case 1 -> random.nextInt(1, 1000) * 1_000_000;
                case 2 -> random.nextInt(1, 1_000_000) * 1_000;
                case 3 -> random.nextInt(1, 10) * 100_000_000 + random.nextInt(1, 10); // 9 digits, zeros inside
                default -> random.nextInt(1_000_000_000);
            };
            Instant instant = Instant.ofEpochSecond(second, nanos);

            int length = IsoInstants.write(instant, into);

            assertThat(new String(into, 0, length)).isEqualTo(instant.toString());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"0000-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z", "1970-01-01T00:00:00Z",
            "1969-12-31T23:59:59.999Z", "2024-02-29T12:00:00.000001Z", "2026-11-21T17:53:07.100Z",
            "2026-11-21T17:53:07.000000100Z"})
    void writesTheEdgesOfTheCalendarAndOfEachPrecision(String text) {
        Instant instant = Instant.parse(text);

        assertThat(IsoInstants.format(instant)).isEqualTo(text).isEqualTo(instant.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"-0001-12-31T23:59:59Z", "+10000-01-01T00:00:00Z"})
    void leavesYearsOutsideFourDigitsToInstantToString(String text) {
        Instant instant = Instant.parse(text);
        char[] into = new char[IsoInstants.MAX_LENGTH];

        assertThat(IsoInstants.write(instant, into)).isEqualTo(-1);
        assertThat(IsoInstants.format(instant)).isEqualTo(instant.toString()).isEqualTo(text);
    }
}
