package dev.jobweaver.api.retention;

import dev.jobweaver.api.platform.http.ClientText;
import java.time.Duration;
import java.time.format.DateTimeParseException;

/** The rules of a retention period as a client writes it, and how the API writes one back. */
final class RetentionPeriods {

    /** The shortest period: a purge runs every few seconds, and a shorter one would purge a job as it is read. */
    static final Duration MIN = Duration.ofSeconds(10);

    /** The longest period: ten years, far beyond any need, and well within what an instant can go back. */
    static final Duration MAX = Duration.ofDays(3650);

    static final String EXPECTED = "an ISO-8601 duration such as PT1M or P30D, from PT10S to P3650D";

    private RetentionPeriods() {
    }

    /**
     * The period {@code text} of the field {@code field}, null when absent; throws {@link IllegalArgumentException}
     * with a message that names the field when it breaks a rule.
     */
    static Duration parse(String field, String text) {
        if (text == null) {
            return null;
        }
        Duration period;
        try {
            period = Duration.parse(text);
        } catch (DateTimeParseException | ArithmeticException e) {
            throw new IllegalArgumentException(field + " must be " + EXPECTED + ", got '" + ClientText.cut(text) + "'");
        }
        if (period.compareTo(MIN) < 0) {
            throw new IllegalArgumentException(field + " must be at least PT10S, got " + text);
        }
        if (period.compareTo(MAX) > 0) {
            throw new IllegalArgumentException(field + " must be at most P3650D, got " + ClientText.cut(text));
        }
        return period;
    }

    /** {@code period} in ISO-8601, in days when it is whole days ({@code P7D} rather than {@code PT168H}). */
    static String format(Duration period) {
        if (!period.isZero() && period.toSeconds() % 86_400 == 0 && period.getNano() == 0) {
            return "P" + period.toDays() + "D";
        }
        return period.toString();
    }
}
