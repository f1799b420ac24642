package dev.jobweaver.common.schedule;

import com.cronutils.model.Cron;
import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * When a recurring schedule's ticks fall: a cron expression in a time zone, or a fixed interval from an anchor.
 *
 * <h2>Cron</h2>
 * Five fields as in a Kubernetes CronJob (minute, hour, day of month, month, day of week), six with seconds first, or
 * one of the macros {@code @hourly}, {@code @daily}, {@code @weekly}, {@code @monthly} ({@code @yearly},
 * {@code @annually} and {@code @midnight} too). Parsing is cron-utils' (Unix and Spring 5.3 definitions); this class
 * only chooses the definition by the number of fields.
 *
 * <h2>Daylight saving</h2>
 * A cron schedule follows the wall clock of its zone, with the rule of Vixie cron (the cron of most Linux systems):
 * <ul>
 *   <li>A <em>fixed-time</em> schedule, whose hour field names hours ({@code 30 2 * * *}, {@code @daily}), runs once
 *       per wall time. Its ticks are found on local date-times, where no hour is missing or repeated, and then placed
 *       in the zone: a wall time the spring-forward change skips (02:30 in Europe/Amsterdam on the last Sunday of
 *       March) runs once, that much later (03:30 summer time), instead of not at all, which is what cron-utils does on
 *       zoned times; a wall time the fall-back change repeats (02:30 on the last Sunday of October) runs once, at its
 *       first occurrence (summer time).</li>
 *   <li>A <em>wildcard</em> schedule, whose hour field starts with {@code *} ({@code *&#47;10 * * * *},
 *       {@code @hourly}), follows real time: it ticks through the repeated hour twice, as the clock shows it twice,
 *       and has no ticks in the skipped hour, which no clock shows.</li>
 * </ul>
 * An interval schedule ignores the zone: its ticks are {@code anchor + k * interval}, whatever the wall clock does.
 *
 * <p>Immutable and thread-safe.
 */
public final class ScheduleClock {

    /** The shortest interval a schedule may have. */
    public static final Duration MIN_INTERVAL = Duration.ofSeconds(1);
    /** The longest interval a schedule may have. */
    public static final Duration MAX_INTERVAL = Duration.ofDays(366);
    /** The longest cron expression accepted (a guard for the parser, far above any real one). */
    public static final int MAX_CRON_LENGTH = 200;
    /** The zone of a schedule that names none. */
    public static final String DEFAULT_TIMEZONE = "UTC";

    private static final Set<String> MACROS = Set.of("@hourly", "@daily", "@weekly", "@monthly", "@yearly",
            "@annually", "@midnight");
    private static final CronParser FIVE_FIELDS = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));
    private static final CronParser SIX_FIELDS =
            new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.SPRING53));
    /** How many wall-clock ticks {@link #nextAfter} looks at before it gives up (only same-instant duplicates repeat). */
    private static final int MAX_STEPS = 4;

    private final ExecutionTime cron;
    /** Whether the hour field starts with {@code *}: the schedule then follows real time across a clock change. */
    private final boolean wildcardHours;
    private final ZoneId zone;
    private final Duration interval;
    private final Instant anchor;

    private ScheduleClock(ExecutionTime cron, boolean wildcardHours, ZoneId zone, Duration interval, Instant anchor) {
        this.cron = cron;
        this.wildcardHours = wildcardHours;
        this.zone = zone;
        this.interval = interval;
        this.anchor = anchor;
    }

    /**
     * The clock of a schedule that gives exactly one of {@code cron} and {@code interval}.
     *
     * @param timezone an IANA zone id such as {@code Europe/Amsterdam}; null means {@value #DEFAULT_TIMEZONE}
     * @param anchor the first tick of an interval schedule is {@code anchor + interval}; unused by cron
     * @throws IllegalArgumentException with a message that names the field and what is wrong with it
     */
    public static ScheduleClock of(String cron, String interval, String timezone, Instant anchor) {
        if (cron != null && interval != null) {
            throw new IllegalArgumentException("give either cron or interval, not both");
        }
        if (cron == null && interval == null) {
            throw new IllegalArgumentException("cron or interval is required");
        }
        ZoneId zone = zone(timezone);
        return cron != null ? cron(cron, zone) : interval(interval(interval), anchor);
    }

    /** A cron clock; IllegalArgumentException naming {@code cron} if the expression is not one. */
    public static ScheduleClock cron(String expression, ZoneId zone) {
        return new ScheduleClock(ExecutionTime.forCron(parseCron(expression)), wildcardHours(expression), zone, null,
                null);
    }

    /** An interval clock ticking at {@code anchor + k * every}, k >= 1. */
    public static ScheduleClock interval(Duration every, Instant anchor) {
        if (anchor == null) {
            throw new IllegalArgumentException("an interval schedule needs an anchor");
        }
        return new ScheduleClock(null, false, ZoneOffset.UTC, every, anchor);
    }

    /** The parsed and validated expression; IllegalArgumentException naming {@code cron} otherwise. */
    public static Cron parseCron(String expression) {
        String text = expression.trim();
        if (text.isEmpty()) {
            throw new IllegalArgumentException("cron must not be empty");
        }
        if (text.length() > MAX_CRON_LENGTH) {
            throw new IllegalArgumentException("cron must be at most " + MAX_CRON_LENGTH + " characters");
        }
        CronParser parser;
        if (text.startsWith("@")) {
            if (!MACROS.contains(text.toLowerCase(Locale.ROOT))) {
                throw new IllegalArgumentException("cron '" + text + "' is not a known macro (@hourly, @daily, @weekly,"
                        + " @monthly, @yearly, @annually, @midnight)");
            }
            text = text.toLowerCase(Locale.ROOT);
            parser = SIX_FIELDS;
        } else {
            int fields = text.split("\\s+").length;
            if (fields != 5 && fields != 6) {
                throw new IllegalArgumentException("cron '" + text + "' has " + fields + " fields; it needs 5 (minute"
                        + " hour day-of-month month day-of-week) or 6 (seconds first)");
            }
            parser = fields == 5 ? FIVE_FIELDS : SIX_FIELDS;
        }
        try {
            return parser.parse(text).validate();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("cron '" + text + "' is not valid: " + e.getMessage());
        }
    }

    /** An ISO-8601 duration of at least a second; IllegalArgumentException naming {@code interval} otherwise. */
    public static Duration interval(String text) {
        Duration every;
        try {
            every = Duration.parse(text.trim());
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("interval '" + text + "' is not an ISO-8601 duration such as PT30S,"
                    + " PT5M or P1D");
        }
        if (every.compareTo(MIN_INTERVAL) < 0) {
            throw new IllegalArgumentException("interval must be at least 1 second (PT1S), got " + text);
        }
        if (every.compareTo(MAX_INTERVAL) > 0) {
            throw new IllegalArgumentException("interval must be at most 366 days (P366D), got " + text);
        }
        return every;
    }

    /** The zone named {@code timezone}; IllegalArgumentException naming {@code timezone} otherwise. */
    public static ZoneId zone(String timezone) {
        if (timezone == null) {
            return ZoneId.of(DEFAULT_TIMEZONE);
        }
        try {
            return ZoneId.of(timezone);
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("timezone '" + timezone + "' is not a time zone id such as"
                    + " Europe/Amsterdam or UTC");
        }
    }

    /** The first tick strictly after {@code after}, or null if the expression never fires again. */
    public Instant nextAfter(Instant after) {
        return interval != null ? nextInterval(after) : nextCron(after);
    }

    private Instant nextInterval(Instant after) {
        if (after.isBefore(anchor)) {
            return anchor.plus(interval);
        }
        Duration since = Duration.between(anchor, after);
        long periods = since.dividedBy(interval) + 1;
        return anchor.plus(interval.multipliedBy(periods));
    }

    private Instant nextCron(Instant after) {
        // Cron ticks fall on whole seconds; cron-utils keeps the fraction of the instant it is asked from.
        Instant second = after.truncatedTo(ChronoUnit.SECONDS);
        if (wildcardHours) {
            return cron.nextExecution(second.atZone(zone)).map(ZonedDateTime::toInstant).orElse(null);
        }
        // Walk the wall clock: cron-utils sees local date-times at UTC, where no hour is skipped or repeated.
        LocalDateTime wall = LocalDateTime.ofInstant(second, zone);
        for (int i = 0; i < MAX_STEPS; i++) {
            Optional<ZonedDateTime> next = cron.nextExecution(wall.atZone(ZoneOffset.UTC));
            if (next.isEmpty()) {
                return null;
            }
            wall = next.get().toLocalDateTime();
            // In a gap: shifted later by the gap's length; in an overlap: the earlier offset.
            Instant tick = ZonedDateTime.ofLocal(wall, zone, null).toInstant();
            if (tick.isAfter(after)) {
                return tick;
            }
        }
        return null;
    }

    /** Whether the hour field of a valid expression starts with {@code *} ({@code @hourly} counts as such). */
    static boolean wildcardHours(String expression) {
        String text = expression.trim().toLowerCase(Locale.ROOT);
        if (text.startsWith("@")) {
            return text.equals("@hourly");
        }
        String[] fields = text.split("\\s+");
        return fields[fields.length == 5 ? 1 : 2].startsWith("*");
    }

    /** Whether this is an interval clock. */
    public boolean isInterval() {
        return interval != null;
    }
}
