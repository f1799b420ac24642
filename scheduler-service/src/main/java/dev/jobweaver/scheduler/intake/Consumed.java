package dev.jobweaver.scheduler.intake;

import dev.jobweaver.common.quarantine.QuarantineReason;
import dev.jobweaver.common.quarantine.RecordOrigin;
import java.util.function.Function;

/**
 * One consumed record as a round sees it: the value it became, or why it cannot become one; either way the record it
 * came from, so that a round can set that very record aside.
 *
 * @param <T> what a usable record becomes
 */
public sealed interface Consumed<T> {

    /** The record this came from: its position, key, headers and raw value. */
    RecordOrigin origin();

    /** A record that is a usable event. */
    record Usable<T>(T value, RecordOrigin origin) implements Consumed<T> {
    }

    /** A record that is no usable event (unreadable, invalid, or keyed by something other than its jobId). */
    record Refused<T>(RecordOrigin origin, QuarantineReason reason, String detail) implements Consumed<T> {
    }

    /** The same record with its value turned into {@code mapper}'s result; a refused record stays refused. */
    default <R> Consumed<R> map(Function<T, R> mapper) {
        return switch (this) {
            case Usable<T> usable -> new Usable<>(mapper.apply(usable.value()), usable.origin());
            case Refused<T> refused -> new Refused<>(refused.origin(), refused.reason(), refused.detail());
        };
    }
}
