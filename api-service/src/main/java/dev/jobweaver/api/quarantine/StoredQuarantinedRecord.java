package dev.jobweaver.api.quarantine;

import java.time.Instant;
import java.util.UUID;

/**
 * A stored quarantined record without its raw bytes, which only a replay reads.
 *
 * @param key            the key as text; null for a record without one
 * @param size           the value's length in bytes
 * @param stateChangedAt when it was replayed or discarded; null while {@code KEPT}
 * @param stateChangedBy who replayed or discarded it (the caller's name); null while {@code KEPT}
 */
record StoredQuarantinedRecord(UUID id, String topic, int partition, long offset, String service, String key,
                               String reason, String detail, Instant quarantinedAt, int size, QuarantineState state,
                               Instant stateChangedAt, String stateChangedBy) {
}
