package dev.jobweaver.bench;

import java.time.Instant;
import java.time.InstantSource;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Times when a job's terminal status became visible in the API, for a sample of the jobs, to within
 * {@value #POLL_MS} ms: the status freshness targets ("COMPLETED visible in GET within 100 ms of the worker's
 * finish") need a finer clock than the {@link CompletionWatcher}, whose poll stretches to a second while 20,000 jobs
 * are open.
 *
 * <p>How: every accepted job is followed while fewer than {@value #MAX_FOLLOWED} followed jobs are open, and the open
 * ones are looked up in {@code jobweaver_api.jobs} (what {@code GET /api/jobs/{id}} reads) every {@value #POLL_MS} ms,
 * on a connection of its own. A job's time is the start of the first lookup that found it terminal: at most one period
 * after it became visible, and never more than the time a lookup takes to reach the database before. At 100 jobs/s
 * every job is followed (a few are open at a time); in a burst about a hundred at a time, spread over the run. The
 * lookups cost the platform's PostgreSQL and the bench about a hundred small queries a second.
 */
public final class FreshnessProbe {

    /** Period of the lookups, milliseconds. */
    static final long POLL_MS = 10;

    /** Followed jobs open at once at most: each lookup sends every open one. */
    static final int MAX_FOLLOWED = 100;

    /** Which of some job ids are terminal in the API's database. */
    @FunctionalInterface
    public interface TerminalCheck {
        /** The ids among {@code ids} whose job is terminal. */
        Set<UUID> terminal(Collection<UUID> ids);
    }

    private final TerminalCheck db;
    private final InstantSource clock;
    private final int maxFollowed;
    private final ConcurrentLinkedQueue<UUID> incoming = new ConcurrentLinkedQueue<>();
    /** Followed jobs not yet seen terminal, those still in {@link #incoming} included. */
    private final AtomicInteger following = new AtomicInteger();
    private final Set<UUID> open = new HashSet<>();
    private final Map<UUID, Instant> seen = new ConcurrentHashMap<>();
    private volatile boolean stopping;
    private volatile RuntimeException failure;
    private Thread thread;

    /** A probe looking jobs up in {@code db}, timing with {@code clock}; {@link #start} starts its lookups. */
    public FreshnessProbe(TerminalCheck db, InstantSource clock) {
        this(db, clock, MAX_FOLLOWED);
    }

    /**
     * A probe following at most {@code maxFollowed} open jobs at once: the cancel workload follows every job it
     * cancels, a few hundred, with {@code db} answering which are CANCELLED.
     */
    public FreshnessProbe(TerminalCheck db, InstantSource clock, int maxFollowed) {
        this.db = db;
        this.clock = clock;
        this.maxFollowed = maxFollowed;
    }

    /** Starts the lookups on a thread of their own. */
    public FreshnessProbe start() {
        thread = Thread.ofPlatform().daemon().name("bench-freshness").start(this::loop);
        return this;
    }

    /** A newly accepted job: followed while fewer than the probe's bound ({@link #MAX_FOLLOWED}) are open. */
    public void offer(Accepted job) {
        if (following.incrementAndGet() > maxFollowed) {
            following.decrementAndGet();
            return;
        }
        incoming.add(job.jobId());
    }

    /** One lookup of the open followed jobs; those found terminal get the lookup's start as their time. */
    void pollOnce() {
        UUID next;
        while ((next = incoming.poll()) != null) {
            open.add(next);
        }
        if (open.isEmpty()) {
            return;
        }
        Instant at = clock.instant();
        for (UUID id : db.terminal(open)) {
            if (open.remove(id)) {
                seen.put(id, at);
                following.decrementAndGet();
            }
        }
    }

    /** Whether a lookup has found job {@code id} terminal. */
    public boolean seen(UUID id) {
        return seen.containsKey(id);
    }

    /** Stops the lookups (jobs still open stay without a time) and waits for the thread. */
    public void stop() {
        stopping = true;
        if (thread != null) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Why the lookups stopped early (a database error), or null: the jobs seen until then keep their times. */
    public String problem() {
        return failure == null ? null : failure.getMessage();
    }

    /** {@code records} with {@code visibleProbedAt} set for every job this probe saw terminal. */
    public List<JobRecord> withProbedVisibility(List<JobRecord> records) {
        return records.stream().map(r -> r.withVisibleProbedAt(seen.get(r.jobId()))).toList();
    }

    private void loop() {
        try {
            while (!stopping) {
                pollOnce();
                Thread.sleep(POLL_MS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            failure = e;
        }
    }
}
