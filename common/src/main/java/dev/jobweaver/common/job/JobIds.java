package dev.jobweaver.common.job;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.UUID;

/**
 * New job ids: UUIDs of version 7 (RFC 9562), whose first 48 bits are the creation time in Unix milliseconds.
 *
 * <p>Why not random (version 4) ids: every service keeps a B-tree on the jobId (the API's {@code jobs} and
 * {@code job_outbox} keys, the scheduler's {@code job_executions} key, the worker's attempts by job). A random key
 * lands on a random leaf page, so after each checkpoint nearly every insert dirties a page no other recent insert
 * touched, and PostgreSQL writes that whole 8 KB page into the WAL (a full-page image). Time-ordered keys land on
 * the index's right edge, on the few pages the previous inserts already dirtied.
 *
 * <p>The other 74 bits are random, from {@link UUID#randomUUID()}: the JDK's cryptographically strong source, which
 * a native image seeds at run time, not at build time. An id reveals when its job was submitted, which
 * {@code createdAt} shows anyway. Ids made within one millisecond are not ordered among themselves; the indexes only
 * need them close together.
 */
public final class JobIds {

    private static final long VERSION_7 = 0x7000L;
    private static final long RANDOM_A_MASK = 0x0FFFL;

    private JobIds() {
    }

    /** A new job id for a job created now. */
    public static UUID next() {
        return of(System.currentTimeMillis(), UUID.randomUUID());
    }

    /**
     * The id of the job of a schedule's tick: version 7 at the tick's millisecond, its other bits a name-based hash of
     * (scheduleId, scheduledFor). The same tick always names the same job, so a tick fired twice makes one job, and
     * the ids of one schedule's jobs are still time-ordered.
     */
    public static UUID forTick(UUID scheduleId, Instant scheduledFor) {
        UUID name = UUID.nameUUIDFromBytes(("tick:" + scheduleId + ":" + scheduledFor)
                .getBytes(StandardCharsets.UTF_8));
        return of(scheduledFor.toEpochMilli(), name);
    }

    /**
     * The id of the job of a workflow run's node: version 7 at the run's millisecond (a run id is itself a version-7
     * id), its other bits a name-based hash of (runId, nodeId). A node asked for twice, by a redelivered event or a
     * scheduler that restarted mid-run, always names the same job, so no node runs as two jobs.
     */
    public static UUID forNode(UUID runId, String nodeId) {
        UUID name = UUID.nameUUIDFromBytes(("node:" + runId + ":" + nodeId).getBytes(StandardCharsets.UTF_8));
        return of(runId.getMostSignificantBits() >>> 16, name);
    }

    /**
     * The id of the job a call of an inbound hook makes: version 7 at the call's timestamp (Unix seconds), its other
     * bits a name-based hash of (hookId, signature). The signature covers the timestamp and the body, so the same
     * signed request repeated names the same job and makes it once; any other request of the hook names another.
     */
    public static UUID forHookCall(UUID hookId, long timestampSeconds, String signature) {
        UUID name = UUID.nameUUIDFromBytes(("hook:" + hookId + ":" + signature).getBytes(StandardCharsets.UTF_8));
        return of(Math.max(0, timestampSeconds) * 1000, name);
    }

    /**
     * The id of the workflow run an application event starts: version 7 at the event's receipt (its first request's,
     * as the API stored it), its other bits a name-based hash of (tenant, eventId, workflowId). An event id names one
     * run per workflow that listens to it; any other event, or another tenant's event of the same id, names another.
     */
    public static UUID forEvent(String tenant, String eventId, UUID workflowId, Instant receivedAt) {
        UUID name = UUID.nameUUIDFromBytes(("event:" + tenant + ":" + eventId + ":" + workflowId)
                .getBytes(StandardCharsets.UTF_8));
        return of(receivedAt.toEpochMilli(), name);
    }

    /**
     * The version-7 id of a job created at {@code epochMillis}, with the random bits of {@code random} (a version-4
     * UUID): its 12 bits after the version nibble and its 62 bits after the variant, whose variant bits are already
     * RFC 9562's.
     */
    static UUID of(long epochMillis, UUID random) {
        long mostSignificant = (epochMillis << 16) | VERSION_7 | (random.getMostSignificantBits() & RANDOM_A_MASK);
        return new UUID(mostSignificant, random.getLeastSignificantBits());
    }
}
