package dev.jobweaver.common.messaging;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * Deterministic event ids.
 *
 * <p>The id of a run is a name-based UUID of (jobId, attempt): if the scheduler dispatches the same attempt
 * twice (a crash after publishing but before committing, a lease race), the worker sees the same
 * {@code eventId} and recognises the run instead of executing the job again.
 */
public final class EventIds {

    private EventIds() {
    }

    /** The eventId of attempt {@code attempt} (1-based) of job {@code jobId}. */
    public static UUID runEventId(UUID jobId, int attempt) {
        return UUID.nameUUIDFromBytes(("run:" + jobId + ":" + attempt).getBytes(StandardCharsets.UTF_8));
    }

    /** The eventId of the outcome of a run: one outcome per run, so a re-published outcome keeps its id. */
    public static UUID outcomeEventId(UUID runEventId) {
        return UUID.nameUUIDFromBytes(("outcome:" + runEventId).getBytes(StandardCharsets.UTF_8));
    }

    /** The eventId of the status change of job {@code jobId} to version {@code version}. */
    public static UUID statusEventId(UUID jobId, long version) {
        return UUID.nameUUIDFromBytes(("status:" + jobId + ":" + version).getBytes(StandardCharsets.UTF_8));
    }
}
