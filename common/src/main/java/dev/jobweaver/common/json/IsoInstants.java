package dev.jobweaver.common.json;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;

/**
 * Reads the one timestamp shape the services write, {@link Instant#toString()} in UTC, without
 * {@link java.time.format.DateTimeFormatter}.
 *
 * <p>Why: every event carries two to four timestamps, and {@code DateTimeFormatter.ISO_INSTANT.parse} (what Jackson's
 * {@code InstantDeserializer} calls) was 2-4% of each service's CPU in a 20,000-job burst (JFR). It builds a parse
 * context, a field map and a resolver per call; this reads fixed positions.
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
