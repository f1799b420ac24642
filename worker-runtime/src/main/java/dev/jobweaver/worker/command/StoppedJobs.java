package dev.jobweaver.worker.command;

import dev.jobweaver.common.job.JobCommand;
import dev.jobweaver.worker.WorkerConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import org.jboss.logging.Logger;

/**
 * The jobs cancelled or deleted within the last {@code jobweaver.worker.commands.window}, by jobId: what a run asks
 * before and while it runs.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>Bounded: at most {@code max-entries} jobs; past it the oldest are forgotten first. A job whose command is older
 *       than the window is forgotten too (it is no longer reported even before it is dropped).</li>
 *   <li>A DELETE is never downgraded: a CANCEL of a deleted job changes nothing; a DELETE of a cancelled one replaces
 *       its CANCEL. The same command twice keeps the first.</li>
 *   <li>Thread-safe. {@link #command} is one {@link ConcurrentHashMap} lookup without a lock (a clock read only for a
 *       job it knows), for every run; {@link #record} takes a lock, for every command.</li>
 * </ul>
 *
 * <h2>Catching up</h2>
 * {@link #awaitCurrent} holds runs until the worker has read {@code worker-commands} up to where it stood when the
 * worker joined ({@link #markCurrent}), so that a restarted worker knows of the recent cancels before it runs a record,
 * but never past {@code catch-up-timeout} from the registry's creation (at start): a worker that cannot read its
 * commands still runs jobs. Once current, or past that time, it is one volatile read.
 */
@ApplicationScoped
public class StoppedJobs {

    private static final Logger LOG = Logger.getLogger(StoppedJobs.class);

    /** What is remembered of a job: its strongest command and when that was given. */
    private record Entry(JobCommand command, Instant at) {
    }

    /** The insertion order, for dropping the oldest; a job may appear twice (CANCEL, then DELETE). */
    private record Node(UUID jobId, Entry entry) {
    }

    private final Clock clock;
    private final Duration window;
    private final int maxEntries;
    private final Map<UUID, Entry> entries = new ConcurrentHashMap<>();
    private final ArrayDeque<Node> order = new ArrayDeque<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final CompletableFuture<Void> current = new CompletableFuture<>();
    private final long catchUpBy;
    /** Whether runs no longer wait: current, or the catch-up time is over. */
    private volatile boolean waitOver;

    @Inject
    public StoppedJobs(WorkerConfig config) {
        this(Clock.systemUTC(), config.commands().window(), config.commands().maxEntries(),
                config.commands().catchUpTimeout());
    }

    /** A registry over {@code clock} that remembers jobs for {@code window}, at most {@code maxEntries} of them. */
    public StoppedJobs(Clock clock, Duration window, int maxEntries) {
        this(clock, window, maxEntries, Duration.ZERO);
    }

    /** As {@link #StoppedJobs(Clock, Duration, int)}; runs wait up to {@code catchUpTimeout} from now to be current. */
    public StoppedJobs(Clock clock, Duration window, int maxEntries, Duration catchUpTimeout) {
        this.catchUpBy = System.nanoTime() + catchUpTimeout.toNanos();
        if (maxEntries < 1) {
            throw new IllegalArgumentException("jobweaver.worker.commands.max-entries must be at least 1, got "
                    + maxEntries);
        }
        this.clock = clock;
        this.window = window;
        this.maxEntries = maxEntries;
    }

    /**
     * Remembers {@code command} of job {@code jobId}, given at {@code at}; a command older than the window is not
     * remembered. Returns whether it changed what is known of the job.
     */
    public boolean record(UUID jobId, JobCommand command, Instant at) {
        lock.lock();
        try {
            Instant horizon = clock.instant().minus(window);
            dropOlderThan(horizon);
            if (at.isBefore(horizon)) {
                return false;
            }
            Entry known = entries.get(jobId);
            if (known != null && (known.command() == JobCommand.DELETE || known.command() == command)) {
                return false;
            }
            Entry entry = new Entry(command, at);
            entries.put(jobId, entry);
            order.addLast(new Node(jobId, entry));
            while (entries.size() > maxEntries) {
                dropOldest();
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** The command of job {@code jobId} within the window: CANCEL, DELETE, or null for none. */
    public JobCommand command(UUID jobId) {
        Entry entry = entries.get(jobId);
        if (entry == null || entry.at().isBefore(clock.instant().minus(window))) {
            return null;
        }
        return entry.command();
    }

    /** Jobs remembered now, including any past the window not yet dropped. */
    public int size() {
        return entries.size();
    }

    /** The worker has read {@code worker-commands} up to where it stood when the worker joined. */
    public void markCurrent() {
        current.complete(null);
        waitOver = true;
    }

    /** Whether {@link #markCurrent} was called. */
    public boolean isCurrent() {
        return current.isDone();
    }

    /**
     * Waits, on the calling (virtual) thread, until {@link #markCurrent} or the end of the catch-up time; returns
     * whether current. An interrupt ends the wait and is kept.
     */
    public boolean awaitCurrent() {
        if (waitOver) {
            return current.isDone();
        }
        try {
            current.get(Math.max(0, catchUpBy - System.nanoTime()), TimeUnit.NANOSECONDS);
            return true;
        } catch (TimeoutException e) {
            if (!waitOver) {
                waitOver = true;
                LOG.warnf("worker-commands not read up to date within the catch-up time: runs go ahead, and a job"
                        + " cancelled while this worker was down may run once more");
            }
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    private void dropOlderThan(Instant horizon) {
        while (!order.isEmpty() && order.peekFirst().entry().at().isBefore(horizon)) {
            dropOldest();
        }
    }

    private void dropOldest() {
        Node node = order.pollFirst();
        if (node != null) {
            // Only if it is still the job's entry: a DELETE that replaced a CANCEL has its own, younger node.
            entries.remove(node.jobId(), node.entry());
        }
    }
}
