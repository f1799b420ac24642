package dev.jobweaver.common.quarantine;

/**
 * One consumed record as a round of {@link BatchIntake} sees it: the item it became, or why it cannot become one;
 * either way the record it came from, so that the round can set that very record aside.
 *
 * @param <T> what a usable record becomes
 */
public sealed interface Consumed<T> {

    /** The record this came from: its position, key, headers and raw value. */
    RecordOrigin origin();

    /** A record that is a usable item. */
    record Usable<T>(T value, RecordOrigin origin) implements Consumed<T> {
    }

    /** A record that is no usable item (unreadable, invalid, or keyed wrongly), to be quarantined. */
    record Refused<T>(RecordOrigin origin, QuarantineReason reason, String detail) implements Consumed<T> {
    }

    /**
     * A record that carries nothing to apply and nothing wrong, such as a tombstone on a compacted topic whose consumer
     * has no use for deletions: acknowledged with its poll, neither applied nor set aside.
     */
    record Ignored<T>(RecordOrigin origin) implements Consumed<T> {
    }
}
