package dev.jobweaver.common.event;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.jobweaver.common.job.Priority;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A worker says it lives ({@code worker-heartbeats}, compacted, keyed by workerId): the queues it serves, the job types
 * its handlers declare and how many runs it takes at once. Sent when it starts, every {@code intervalMs} while it
 * lives, and once more with {@code leaving} as it stops. A reader keeps the newest {@code sentAt} per worker and counts
 * the worker live until {@link #liveUntil()}: three heartbeats missed, or one that says it leaves.
 *
 * @param queues the queues it serves, each a queue's name, at least one
 * @param types the job types it runs, each a type's name, at least one
 * @param capacity runs it takes at once
 * @param intervalMs how often it sends a heartbeat, in ms
 * @param startedAt when the worker started
 * @param sentAt when it sent this heartbeat
 * @param leaving the worker is stopping: it takes no new runs
 * @param partitions per queue it serves, the partitions of that queue's run topic Kafka assigned to it now; null when
 *     not known (a worker of an older build). The scheduler aims a run of a type that only some of a queue's workers
 *     declare at the partitions of those that do.
 * @param defaults per type whose handler declares any, what a job of the type gets when it does not say; null or
 *     absent for none
 */
@RegisterForReflection
public record WorkerHeartbeatEvent(String workerId, List<String> queues, List<String> types, int capacity,
                                   long intervalMs, Instant startedAt, Instant sentAt, boolean leaving,
                                   Map<String, List<Integer>> partitions,
                                   @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, TypeDefaults> defaults) {

    /**
     * A type's defaults as its handler declares them: each null when the handler leaves the platform's.
     *
     * @param timeoutMs an attempt's bound, as a job's {@code timeoutMs}
     * @param retryDelaysMs the delays before retries, as a job's {@code retryDelaysMs}
     */
    @RegisterForReflection
    public record TypeDefaults(Long timeoutMs, List<Long> retryDelaysMs, Priority priority) {
    }

    /** A heartbeat that does not say which partitions the worker holds. */
    public WorkerHeartbeatEvent(String workerId, List<String> queues, List<String> types, int capacity,
                                long intervalMs, Instant startedAt, Instant sentAt, boolean leaving) {
        this(workerId, queues, types, capacity, intervalMs, startedAt, sentAt, leaving, null, null);
    }

    /** A heartbeat whose types declare no defaults. */
    public WorkerHeartbeatEvent(String workerId, List<String> queues, List<String> types, int capacity,
                                long intervalMs, Instant startedAt, Instant sentAt, boolean leaving,
                                Map<String, List<Integer>> partitions) {
        this(workerId, queues, types, capacity, intervalMs, startedAt, sentAt, leaving, partitions, null);
    }

    /** Heartbeats a worker may miss and still count as live. */
    public static final int MISSED = 3;
    /** The shortest interval between heartbeats. */
    public static final long MIN_INTERVAL_MS = 100;
    /** The longest interval between heartbeats: 10 min. */
    public static final long MAX_INTERVAL_MS = 600_000;
    /** The most queues one worker serves. */
    public static final int MAX_QUEUES = 50;
    /** The most job types one worker runs. */
    public static final int MAX_TYPES = 500;
    /** The most partitions one heartbeat may name, over all its queues. */
    public static final int MAX_PARTITIONS = 10_000;
    /** The most runs a worker may say it takes at once. */
    public static final int MAX_CAPACITY = 1_000_000;

    /** Until when a reader counts the worker live: {@link #MISSED} intervals after this one, or not at all if it leaves. */
    public Instant liveUntil() {
        return leaving ? sentAt : sentAt.plus(Duration.ofMillis(intervalMs * MISSED));
    }
}
