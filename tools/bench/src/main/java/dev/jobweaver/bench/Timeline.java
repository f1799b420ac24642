package dev.jobweaver.bench;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;

/** Counts of events per whole second after an origin (completions over time). */
public final class Timeline {

    private Timeline() {
    }

    /** {@code result[s]} = events in [origin + s, origin + s + 1 s); events before the origin count in second 0. */
    public static int[] perSecond(Collection<Instant> events, Instant origin) {
        long last = -1;
        for (Instant event : events) {
            last = Math.max(last, second(event, origin));
        }
        int[] counts = new int[(int) (last + 1)];
        for (Instant event : events) {
            counts[(int) second(event, origin)]++;
        }
        return counts;
    }

    private static long second(Instant event, Instant origin) {
        return Math.max(0, Duration.between(origin, event).toMillis() / 1000);
    }
}
