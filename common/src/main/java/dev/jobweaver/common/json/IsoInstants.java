package dev.jobweaver.common.json;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;

/**
 * Reads and writes the one timestamp shape the services exchange, {@link Instant#toString()} in UTC, without
 * {@link java.time.format.DateTimeFormatter}.
 *
 * <p>Why: every event carries two to four timestamps. {@code DateTimeFormatter.ISO_INSTANT.parse} (what Jackson's
 * {@code InstantDeserializer} calls) was 2-4% of each service's CPU in a 20,000-job burst (JFR); it builds a parse
 * context, a field map and a resolver per call, and this reads fixed positions. {@link Instant#toString()} (what
 * Jackson's {@code InstantSerializer} calls) runs the same formatter's printer parts and a {@code StringBuilder}: 5% of
 * the scheduler's CPU in a burst, which writes three events a job; {@link #write} fills fixed positions.
 *
 * <h2>Accepted</h2>
 * {@code yyyy-MM-ddTHH:mm:ssZ} with an optional fraction of 1 to 9 digits ({@code .S} to {@code .SSSSSSSSS}), a
 * four-digit year and an upper-case {@code T} and {@code Z}: every instant {@link Instant#toString()} prints for the
 * years 0000 to 9999. Anything else, including offsets, lower case, a leap second and dates that do not exist, is not
 * this parser's to judge: {@link #parse} answers null and the caller falls back to the full ISO parser, which accepts
 * or rejects it with its usual message.
 */
public final class IsoInstants {

    private static final int SECONDS_PER_DAY = 86_400;
    /** Position of the first character after the seconds: {@code yyyy-MM-ddTHH:mm:ss} is 19 characters. */
    private static final int AFTER_SECONDS = 19;
    /** The longest text {@link #write} writes: {@code yyyy-MM-ddTHH:mm:ss.nnnnnnnnnZ}. */
    public static final int MAX_LENGTH = 30;
    /** 0000-01-01T00:00:00Z and 9999-12-31T23:59:59Z: the instants whose year {@code toString()} prints as four digits. */
    private static final long FIRST_SECOND = -62_167_219_200L;
    private static final long LAST_SECOND = 253_402_300_799L;

    private IsoInstants() {
    }

    /**
     * The instant {@code text} names, or null when it is not in the accepted shape (see the class comment).
     *
     * @param text the JSON string's content; null gives null
     */
    public static Instant parse(String text) {
        if (text == null || text.length() < AFTER_SECONDS + 1 || text.charAt(text.length() - 1) != 'Z'
                || text.charAt(4) != '-' || text.charAt(7) != '-' || text.charAt(10) != 'T'
                || text.charAt(13) != ':' || text.charAt(16) != ':') {
            return null;
        }
        int year = digits(text, 0, 4);
        int month = digits(text, 5, 2);
        int day = digits(text, 8, 2);
        int hour = digits(text, 11, 2);
        int minute = digits(text, 14, 2);
        int second = digits(text, 17, 2);
        if (year < 0 || month < 0 || day < 0 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0
                || second > 59) {
            return null;
        }
        int nanos = fraction(text);
        if (nanos < 0) {
            return null;
        }
        long epochDay;
        try {
            epochDay = LocalDate.of(year, month, day).toEpochDay();
        } catch (DateTimeException e) {
            return null; // e.g. February 30th: the full parser words the rejection
        }
        return Instant.ofEpochSecond(epochDay * SECONDS_PER_DAY + hour * 3600L + minute * 60L + second, nanos);
    }

    /**
     * Writes what {@link Instant#toString()} prints for {@code instant} into {@code into}, from position 0, and answers
     * the number of characters written; -1, with nothing written, for an instant outside the years 0000 to 9999 (there
     * {@code toString()} adds a sign or more digits; callers fall back to it).
     *
     * <p>The fraction is printed as {@code toString()} prints it: none when the nanoseconds are 0, else 3, 6 or 9
     * digits, the fewest that hold it exactly.
     *
     * @param into at least {@link #MAX_LENGTH} characters
     */
    public static int write(Instant instant, char[] into) {
        long seconds = instant.getEpochSecond();
        if (seconds < FIRST_SECOND || seconds > LAST_SECOND) {
            return -1;
        }
        long epochDay = Math.floorDiv(seconds, SECONDS_PER_DAY);
        int secondOfDay = (int) Math.floorMod(seconds, SECONDS_PER_DAY);
        LocalDate date = LocalDate.ofEpochDay(epochDay);
        put(into, 0, date.getYear(), 4);
        into[4] = '-';
        put(into, 5, date.getMonthValue(), 2);
        into[7] = '-';
        put(into, 8, date.getDayOfMonth(), 2);
        into[10] = 'T';
        put(into, 11, secondOfDay / 3600, 2);
        into[13] = ':';
        put(into, 14, secondOfDay / 60 % 60, 2);
        into[16] = ':';
        put(into, 17, secondOfDay % 60, 2);
        int end = AFTER_SECONDS;
        int nanos = instant.getNano();
        if (nanos != 0) {
            into[end++] = '.';
            if (nanos % 1_000_000 == 0) {
                put(into, end, nanos / 1_000_000, 3);
                end += 3;
            } else if (nanos % 1_000 == 0) {
                put(into, end, nanos / 1_000, 6);
                end += 6;
            } else {
                put(into, end, nanos, 9);
                end += 9;
            }
        }
        into[end++] = 'Z';
        return end;
    }

    /** {@link Instant#toString()}, through {@link #write} where it applies. */
    public static String format(Instant instant) {
        char[] text = new char[MAX_LENGTH];
        int length = write(instant, text);
        return length < 0 ? instant.toString() : new String(text, 0, length);
    }

    /** Writes {@code value} as exactly {@code width} decimal digits, zero-padded, at {@code into[from]}. */
    private static void put(char[] into, int from, int value, int width) {
        for (int i = from + width - 1; i >= from; i--) {
            into[i] = (char) ('0' + value % 10);
            value /= 10;
        }
    }

    /** The nanoseconds of the optional fraction between the seconds and the final Z, or -1 if it is malformed. */
    private static int fraction(String text) {
        int end = text.length() - 1; // the Z
        if (end == AFTER_SECONDS) {
            return 0;
        }
        int count = end - AFTER_SECONDS - 1;
        if (text.charAt(AFTER_SECONDS) != '.' || count < 1 || count > 9) {
            return -1;
        }
        int value = digits(text, AFTER_SECONDS + 1, count);
        if (value < 0) {
            return -1;
        }
        for (int i = count; i < 9; i++) {
            value *= 10;
        }
        return value;
    }

    /** The non-negative decimal number in {@code text[from, from + count)}, or -1 if a character is not a digit. */
    private static int digits(String text, int from, int count) {
        int value = 0;
        for (int i = from; i < from + count; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }
}
