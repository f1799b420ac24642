package dev.jobweaver.worker.offsets;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The offset bookkeeping of one partition: which offsets were received, which completed, what may be committed.
 *
 * <h2>Guarantee</h2>
 * At-least-once. The committed offset only ever moves to a position below which every received record completed,
 * so a record whose run has not completed (its outcome acknowledged by Kafka) is never committed past: after a crash
 * or a rebalance it is delivered again. Records completed above the committed offset are listed in the commit
 * metadata ({@link CompletedOffsetsCodec}) so that the next owner can skip them; what the metadata cannot hold is
 * delivered again, which the worker's {@code event_id} idempotency makes harmless.
 *
 * <h2>Invariants</h2>
 * <ul>
 *   <li>Every received offset is in exactly one of {@code inFlight} or {@code completed}, until it falls below the
 *       commit position and is forgotten.</li>
 *   <li>The commit position ({@link #commitPosition()}) is the lowest in-flight offset, or one past the highest
 *       received offset when nothing is in flight, or the initial committed offset when nothing was received. It
 *       never decreases. Offsets that never arrive (gaps in the log: transaction markers, compaction) do not hold it
 *       back, because it moves over received offsets, not over integers.</li>
 *   <li>{@code completed} and {@code knownCompleted} only hold offsets at or above the commit position.</li>
 *   <li>{@code knownCompleted} holds offsets known to be complete but not (yet) received in this assignment: those a
 *       previous owner recorded in the commit metadata, and those acknowledged by a run that started before the
 *       partition was revoked and re-assigned. When such an offset arrives, {@link #received} answers
 *       {@link Admission#SKIP}.</li>
 * </ul>
 *
 * <h2>Sentinels</h2>
 * {@link #NONE} (-1) stands for "no offset": no committed offset yet (a new consumer group), nothing received.
 *
 * <h2>Threads</h2>
 * Not thread-safe: {@link OutOfOrderCommitHandler} confines every call under its own lock. The callers:
 * <ul>
 *   <li>construction (partition assigned) and the final {@link #commitPoint} of a revoked partition: the Kafka
 *       polling thread, inside {@code poll()};</li>
 *   <li>{@link #received}: the consumer's Vert.x event-loop context;</li>
 *   <li>{@link #complete}: the virtual thread that ran the record's job or quarantined the record;</li>
 *   <li>{@link #commitPoint}, {@link #committed}, {@link #stuck}: the polling thread, on the commit timer;</li>
 *   <li>the read-only getters: also health checks and metrics, on their own threads.</li>
 * </ul>
 *
 * <h2>Defaults</h2>
 * The class has none: the stuck threshold and the metadata size bound are arguments. The worker passes
 * {@code jobweaver.worker.offsets.stuck-threshold} (2 minutes) and {@code metadata-max-chars} (4096, Kafka's
 * {@code offset.metadata.max.bytes}); commits happen every {@code commit-interval} (1 s).
 */
final class PartitionOffsets {

    /** "No offset": nothing committed yet, nothing received. */
    public static final long NONE = -1L;

    /** What to do with a record that was just received. */
    public enum Admission {
        /** Run it: it is now in flight. */
        RUN,
        /** Do not run it: it completed already (per the commit metadata, or an earlier delivery). */
        SKIP
    }

    /**
     * What should be committed now.
     *
     * @param offset the offset to commit (the next one to consume)
     * @param metadata the completed offsets above it, encoded
     * @param recorded how many completed offsets above it the metadata records
     * @param dropped how many completed offsets above it did not fit in the metadata
     */
    public record CommitPoint(long offset, String metadata, int recorded, int dropped) {
    }

    /**
     * An offset in flight for longer than the threshold.
     *
     * @param offset the record's offset
     * @param ageMillis how long ago it was received
     */
    public record StuckOffset(long offset, long ageMillis) {
    }

    private final long initialCommitted;
    private final TreeMap<Long, Long> inFlight = new TreeMap<>(); // offset -> received at (nanos)
    private final TreeSet<Long> completed = new TreeSet<>();
    private final TreeSet<Long> knownCompleted = new TreeSet<>();
    private long highestReceived = NONE;
    private long lastCommittedOffset;
    private String lastCommittedMetadata;

    /**
     * @param committedOffset the committed offset read when the partition was assigned, or {@link #NONE}
     * @param metadata the metadata committed with it (may be null or foreign: then nothing is skipped)
     */
    public PartitionOffsets(long committedOffset, String metadata) {
        this.initialCommitted = committedOffset;
        this.lastCommittedOffset = committedOffset;
        this.lastCommittedMetadata = metadata == null ? "" : metadata;
        if (committedOffset != NONE) {
            CompletedOffsetsCodec.decode(metadata)
                    .filter(decoded -> decoded.base() == committedOffset)
                    .ifPresent(decoded -> knownCompleted.addAll(decoded.completed()));
        }
    }

    /** Registers a received record; {@link Admission#SKIP} means it completed already and must not run. */
    public Admission received(long offset, long nowNanos) {
        long position = commitPosition();
        if (position != NONE && offset < position) {
            return Admission.SKIP; // redelivered below the committed position: completed by definition
        }
        if (inFlight.containsKey(offset) || completed.contains(offset)) {
            return Admission.SKIP; // a second delivery of a record this assignment already has
        }
        highestReceived = Math.max(highestReceived, offset);
        if (knownCompleted.remove(offset)) {
            completed.add(offset);
            prune();
            return Admission.SKIP;
        }
        inFlight.put(offset, nowNanos);
        return Admission.RUN;
    }

    /**
     * Marks a record completed: its outcome is stored and acknowledged by Kafka.
     *
     * @return true if this changed the state (false for an offset completed already or below the commit position)
     */
    public boolean complete(long offset) {
        if (inFlight.remove(offset) != null) {
            completed.add(offset);
            prune();
            return true;
        }
        long position = commitPosition();
        if ((position == NONE || offset >= position) && !completed.contains(offset) && offset > highestReceived) {
            // Acknowledged by a run from before a re-assignment; its record has not come back yet: skip it when it does.
            return knownCompleted.add(offset);
        }
        return false;
    }

    /**
     * The offset below which every received record completed: what may be committed; {@link #NONE} when nothing is
     * known (nothing committed, nothing received).
     */
    public long commitPosition() {
        if (!inFlight.isEmpty()) {
            return inFlight.firstKey();
        }
        if (highestReceived != NONE) {
            return Math.max(highestReceived + 1, initialCommitted);
        }
        return initialCommitted;
    }

    /**
     * What to commit now, or null when it would repeat the last commit (or nothing is known yet).
     *
     * @param maxMetadataChars the metadata size bound (Kafka's {@code offset.metadata.max.bytes})
     */
    public CommitPoint commitPoint(int maxMetadataChars) {
        long position = commitPosition();
        if (position == NONE) {
            return null;
        }
        NavigableSet<Long> above = new TreeSet<>(completed);
        above.addAll(knownCompleted);
        CompletedOffsetsCodec.Encoded encoded = CompletedOffsetsCodec.encode(position, above, maxMetadataChars);
        if (position == lastCommittedOffset && encoded.metadata().equals(lastCommittedMetadata)) {
            return null;
        }
        return new CommitPoint(position, encoded.metadata(), encoded.encoded(), encoded.dropped());
    }

    /** Records that {@code point} was committed, so that the same commit is not repeated. */
    public void committed(CommitPoint point) {
        lastCommittedOffset = point.offset();
        lastCommittedMetadata = point.metadata();
    }

    /** The offset last committed (or read at assignment); {@link #NONE} if there is none. */
    public long lastCommittedOffset() {
        return lastCommittedOffset;
    }

    /** Records received but not covered by the last commit: one past the highest received minus the committed offset. */
    public long uncommittedLag() {
        if (highestReceived == NONE) {
            return 0;
        }
        long committed = lastCommittedOffset == NONE ? lowestKnown() : lastCommittedOffset;
        return Math.max(0, highestReceived + 1 - committed);
    }

    /** Records received and not yet completed. */
    public int inFlightCount() {
        return inFlight.size();
    }

    /** Completed records above the commit position. */
    public int completedAboveCount() {
        return completed.size();
    }

    /** Offsets still to be skipped when they arrive. */
    public int knownCompletedCount() {
        return knownCompleted.size();
    }

    /** The highest offset received, or {@link #NONE}. */
    public long highestReceived() {
        return highestReceived;
    }

    /** Offsets in flight for longer than {@code thresholdNanos}, oldest first. */
    public List<StuckOffset> stuck(long nowNanos, long thresholdNanos) {
        List<StuckOffset> stuck = new ArrayList<>();
        for (Map.Entry<Long, Long> entry : inFlight.entrySet()) {
            long age = nowNanos - entry.getValue();
            if (age > thresholdNanos) {
                stuck.add(new StuckOffset(entry.getKey(), age / 1_000_000));
            }
        }
        stuck.sort((a, b) -> Long.compare(b.ageMillis(), a.ageMillis()));
        return stuck;
    }

    private long lowestKnown() {
        long lowest = highestReceived;
        if (!inFlight.isEmpty()) {
            lowest = Math.min(lowest, inFlight.firstKey());
        }
        if (!completed.isEmpty()) {
            lowest = Math.min(lowest, completed.first());
        }
        return lowest;
    }

    private void prune() {
        long position = commitPosition();
        completed.headSet(position, false).clear();
        knownCompleted.headSet(position, false).clear();
    }

    @Override
    public String toString() {
        return "PartitionOffsets[position=" + commitPosition() + ", inFlight=" + inFlight.size() + ", completedAbove="
                + completed.size() + ", knownCompleted=" + knownCompleted.size() + ", lastCommitted=" + lastCommittedOffset
                + "]";
    }
}
