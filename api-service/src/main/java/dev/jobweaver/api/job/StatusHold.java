package dev.jobweaver.api.job;

import dev.jobweaver.common.event.JobStatusChangedEvent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;

/**
 * Holds a job's non-terminal status back for a short while, so that when its next status follows soon the read model
 * is written once instead of twice; and tracks which polls may be acknowledged once what they carried is written.
 *
 * <h2>Why</h2>
 * A no-op job's {@code RUNNING} and {@code COMPLETED} arrive a few hundred milliseconds apart, often in consecutive
 * polls. Written as they come, that is two updates of the job's row, each a new row version with an entry in each of
 * the four indexes of {@code jobs} (its status is indexed, so no update is HOT): in a 20,000-job burst the read model's
 * updates were the API database's largest cost, 1.75-1.91 per job.
 *
 * <h2>Rules</h2>
 * <ul>
 *   <li>A terminal event is written at once ({@link Step#write()} of the call that offers it); it replaces a held
 *       event of its job, which is then never written.</li>
 *   <li>A non-terminal event is held until it is {@code hold} old or a newer event of its job arrives, whichever is
 *       first. So a client sees {@code RUNNING} at most {@code hold} (plus one poll) later than without holding, and
 *       never a status older than the one written before. A hold of zero holds nothing.</li>
 *   <li>The polls with an event held carry at most {@code maxHeldRecords} records between them: a held event keeps its
 *       whole poll in memory (the caller acknowledges polls, not events), so when a consumer catches up on a backlog,
 *       a second's worth of large polls would otherwise be held at once. Past the bound the oldest held events are
 *       written before they are due, oldest first, until it holds again; a poll larger than the bound holds
 *       nothing.</li>
 *   <li>An event no newer than the held event of its job is stale and dropped here (counted by the caller).</li>
 * </ul>
 *
 * <h2>Acknowledgement (nothing is lost)</h2>
 * A poll ("batch", {@code B}) is handed back in {@link Step#ackable()} only when none of its events is held any more:
 * each was written by that step's or an earlier step's write, or replaced by a newer event of a later poll. The caller
 * acknowledges those polls only after the step's write committed. A replaced event needs nothing more: its job's
 * newer event sits at a higher offset of the same partition (a job's events share its key), in a poll that is not yet
 * acknowledged, so whatever is consumed again after a crash includes it.
 *
 * <h2>Threads</h2>
 * Not thread-safe: the consumer calls it on its own event loop only.
 *
 * @param <B> a poll, as the caller acknowledges it
 * @param <E> an event as the caller writes it: the event itself, or the event with the record it came from (what
 *            the hold writes is exactly what was offered, so the caller still knows which record it writes)
 */
final class StatusHold<B, E> {

    /**
     * What to write now; the polls that may be acknowledged once it is written; the polls whose events it writes (to
     * fail if the write fails); and how many offered events were stale.
     */
    record Step<B, E>(List<E> write, List<B> ackable, List<B> sources, int stale) {
    }

    private record Held<B, E>(E item, JobStatusChangedEvent event, B batch, long heldAt) {
    }

    /** A poll with events still held: how many, and how many records it carries. */
    private static final class Pending {
        private final int records;
        private int held;

        Pending(int records, int held) {
            this.records = records;
            this.held = held;
        }
    }

    private final long holdNanos;
    private final int maxHeldRecords;
    private final Function<? super E, JobStatusChangedEvent> eventOf;
    /** Held events by job, in the order they were held (so oldest first: a replaced event is removed, not moved). */
    private final Map<UUID, Held<B, E>> held = new LinkedHashMap<>();
    /** Polls with events still held. */
    private final Map<B, Pending> heldPerBatch = new IdentityHashMap<>();
    /** The records of the polls in {@link #heldPerBatch}. */
    private int heldRecords;

    /**
     * @param holdNanos      how long a non-terminal event may be held; 0 holds nothing
     * @param maxHeldRecords how many records the polls with an event held may carry between them
     * @param eventOf        the status event an offered item carries
     */
    StatusHold(long holdNanos, int maxHeldRecords, Function<? super E, JobStatusChangedEvent> eventOf) {
        this.holdNanos = Math.max(0, holdNanos);
        this.maxHeldRecords = maxHeldRecords;
        this.eventOf = eventOf;
    }

    /**
     * Takes a poll of {@code records} records and its events (at most one per job), at {@code now}
     * ({@link System#nanoTime()}); what is due, of this poll and of earlier ones, is in the step.
     */
    Step<B, E> offer(B batch, int records, Collection<E> items, long now) {
        List<E> write = new ArrayList<>();
        List<B> ackable = new ArrayList<>();
        List<B> sources = new ArrayList<>();
        int stale = 0;
        int heldHere = 0;
        for (E item : items) {
            JobStatusChangedEvent event = eventOf.apply(item);
            Held<B, E> previous = held.get(event.jobId());
            if (previous != null) {
                if (previous.event().version() >= event.version()) {
                    stale++;
                    continue;
                }
                held.remove(event.jobId());
                release(previous.batch(), ackable);
                stale++;
            }
            if (holdNanos == 0 || event.status().isTerminal()) {
                write.add(item);
                addOnce(sources, batch);
            } else {
                held.put(event.jobId(), new Held<>(item, event, batch, now));
                heldHere++;
            }
        }
        if (heldHere == 0) {
            ackable.add(batch);
        } else {
            heldPerBatch.put(batch, new Pending(records, heldHere));
            heldRecords += records;
        }
        takeDue(now, false, write, ackable, sources);
        return new Step<>(write, ackable, sources, stale);
    }

    /** The held events that are {@code hold} old at {@code now}, and the polls they release. */
    Step<B, E> due(long now) {
        return take(now, false);
    }

    /** Every held event, due or not, and the polls they release. */
    Step<B, E> all() {
        return take(0, true);
    }

    /** Nanoseconds from {@code now} until the oldest held event is due (at least 0), or -1 if nothing is held. */
    long untilNextDue(long now) {
        if (held.isEmpty()) {
            return -1;
        }
        long age = now - held.values().iterator().next().heldAt();
        return Math.max(0, holdNanos - age);
    }

    /** How many events are held. */
    int size() {
        return held.size();
    }

    private Step<B, E> take(long now, boolean everything) {
        List<E> write = new ArrayList<>();
        List<B> ackable = new ArrayList<>();
        List<B> sources = new ArrayList<>();
        takeDue(now, everything, write, ackable, sources);
        return new Step<>(write, ackable, sources, 0);
    }

    private void takeDue(long now, boolean everything, List<E> write, List<B> ackable, List<B> sources) {
        Iterator<Held<B, E>> oldestFirst = held.values().iterator();
        while (oldestFirst.hasNext()) {
            Held<B, E> next = oldestFirst.next();
            if (!everything && now - next.heldAt() < holdNanos && heldRecords <= maxHeldRecords) {
                return;
            }
            oldestFirst.remove();
            write.add(next.item());
            addOnce(sources, next.batch());
            release(next.batch(), ackable);
        }
    }

    /** Adds {@code batch} unless it is already there; the lists are a handful of polls long. */
    private static <B> void addOnce(List<B> batches, B batch) {
        for (B known : batches) {
            if (known == batch) {
                return;
            }
        }
        batches.add(batch);
    }

    private void release(B batch, List<B> ackable) {
        Pending pending = heldPerBatch.get(batch);
        if (--pending.held == 0) {
            heldPerBatch.remove(batch);
            heldRecords -= pending.records;
            ackable.add(batch);
        }
    }
}
