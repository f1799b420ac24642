package dev.jobweaver.api.quarantine;

/** Where a quarantined record stands in its review. */
public enum QuarantineState {
    /** Set aside and waiting for review: the only state a replay or a discard starts from. */
    KEPT,
    /** Published again to its origin topic, with Kafka's acknowledgement; kept for the record, never replayed again. */
    REPLAYED,
    /** Dropped by an operator: kept for the record, never replayed. */
    DISCARDED
}
