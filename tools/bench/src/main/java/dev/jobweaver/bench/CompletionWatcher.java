package dev.jobweaver.bench;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Polls the API database, in batches, until every accepted job is terminal, or no job has become terminal for the
 * stall timeout after submission ended. Latencies come from the platform's recorded timestamps, never from when the
 * poll noticed; the one exception is when a client could first see a job finished, which the read model does not
 * record (its {@code updated_at} is the scheduler's time of the change), so that is the poll's observation, to within
 * one poll period.
 *
 * <p>The period is {@value #POLL_MS} ms, longer while many jobs are open ({@link #pollMillis}): each poll sends every
 * open id, and on the one shared machine the bench's own polling would otherwise take CPU from the platform it
 * measures (a third of a core at 20,000 open jobs every 250 ms).
 */
public final class CompletionWatcher {

    /** Poll period, milliseconds. */
    static final long POLL_MS = 250;

    private final PlatformDb db;
    private final Progress progress;
    private final Duration stallTimeout;
    private final ConcurrentLinkedQueue<Accepted> incoming = new ConcurrentLinkedQueue<>();
    private final List<Accepted> accepted = new ArrayList<>();
    private final Set<UUID> open = new HashSet<>();
    private final Map<UUID, Instant> seenTerminal = new ConcurrentHashMap<>();
    private volatile boolean submissionDone;
    private Thread thread;
    private volatile RuntimeException failure;

    /** A watcher reading {@code db}, reporting to {@code progress}. */
    public CompletionWatcher(PlatformDb db, Progress progress, Duration stallTimeout) {
        this.db = db;
        this.progress = progress;
        this.stallTimeout = stallTimeout;
    }

    /** Starts polling on its own thread. */
    public CompletionWatcher start() {
        thread = Thread.ofPlatform().daemon().name("bench-watcher").start(this::loop);
        return this;
    }

    /** Milliseconds until the next poll with {@code open} jobs open: about 20 ids checked per millisecond at most. */
    static long pollMillis(int open) {
        return Math.max(POLL_MS, open / 20);
    }

    /** A newly accepted job to watch. */
    public void add(Accepted job) {
        incoming.add(job);
    }

    /** No more jobs will be added; the stall clock starts. */
    public void submissionDone() {
        submissionDone = true;
    }

    /** Waits until the watcher finishes; returns every accepted job, in order of acceptance. */
    public List<Accepted> await() {
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (failure != null) {
            throw failure;
        }
        return accepted;
    }

    /**
     * {@code records} with {@code visibleAt} set to when this watcher first saw each job terminal in the API's
     * database (null if it never did).
     */
    public List<JobRecord> withVisibility(List<JobRecord> records) {
        return records.stream().map(r -> r.withVisibleAt(seenTerminal.get(r.jobId()))).toList();
    }

    private void loop() {
        try {
            long lastProgress = System.nanoTime();
            boolean sawDone = false;
            while (true) {
                boolean finalRound = submissionDone;
                Accepted next;
                while ((next = incoming.poll()) != null) {
                    accepted.add(next);
                    open.add(next.jobId());
                }
                if (finalRound && !sawDone) {
                    sawDone = true;
                    lastProgress = System.nanoTime();
                }
                if (!open.isEmpty()) {
                    Set<UUID> done = db.terminal(open);
                    if (!done.isEmpty()) {
                        Instant seen = Instant.now();
                        done.forEach(id -> seenTerminal.put(id, seen));
                        open.removeAll(done);
                        progress.done(done.size());
                        lastProgress = System.nanoTime();
                    }
                }
                if (finalRound && incoming.isEmpty() && open.isEmpty()) {
                    return;
                }
                if (finalRound && System.nanoTime() - lastProgress > stallTimeout.toNanos()) {
                    return;
                }
                Thread.sleep(pollMillis(open.size()));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            failure = e;
        }
    }
}
