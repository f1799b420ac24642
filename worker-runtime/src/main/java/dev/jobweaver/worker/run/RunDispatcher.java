package dev.jobweaver.worker.run;

import dev.jobweaver.common.reactive.VertxContexts;
import dev.jobweaver.worker.WorkerConfig;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Uni;
import io.quarkus.runtime.Startup;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * Starts each record's run on its own virtual thread, at most {@code jobweaver.worker.max-in-flight} at a time.
 *
 * <p>Back-pressure: {@link #submit} returns a {@link Uni} that completes once the run has a slot. The channel asks for
 * the next record only then, so while every slot is taken nobody asks, the connector's queue fills
 * ({@code max.poll.records x max-queue-size-factor}) and the connector pauses the partitions; polling goes on (with
 * paused partitions, so the consumer keeps its group membership) and resumes them when the queue drains. Nothing ever
 * blocks the poll loop or an event loop.
 *
 * <p>Shutdown: {@link #startDraining()} refuses new runs (their records are neither run nor acknowledged, so they are
 * never committed past and go to the next owner) and {@link #awaitIdle()} waits for the runs in progress, up to the
 * grace period counted from the moment draining started.
 */
@ApplicationScoped
@Startup // its gauges exist from the start, not from the first record
public class RunDispatcher {

    private static final Logger LOG = Logger.getLogger(RunDispatcher.class);

    private final JobRunner runner;
    private final WorkerConfig config;
    private final ExecutorService executor = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("jobweaver-run-", 0).factory());
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition idle = lock.newCondition();
    private final Deque<Waiting> waiting = new ArrayDeque<>();
    private int running;
    private volatile boolean draining;
    private volatile long drainDeadline;

    /** A record waiting for a slot, and the signal that lets the channel ask for the next one. */
    private record Waiting(Message<byte[]> message, CompletableFuture<Void> slot) {
    }

    public RunDispatcher(JobRunner runner, WorkerConfig config, MeterRegistry registry) {
        this.runner = runner;
        this.config = config;
        runner.stopWhen(this::isPastGracePeriod);
        Gauge.builder("jobweaver.worker.in.flight", this, RunDispatcher::running)
                .description("Runs in progress on this worker")
                .register(registry);
        Gauge.builder("jobweaver.worker.in.flight.max", config, WorkerConfig::maxInFlight)
                .description("The bound on runs in progress on this worker")
                .register(registry);
    }

    /** Starts the run of {@code message} when a slot is free; the returned Uni completes once it has one. */
    public Uni<Void> submit(Message<byte[]> message) {
        if (draining) {
            return Uni.createFrom().voidItem();
        }
        CompletableFuture<Void> slot;
        lock.lock();
        try {
            if (running < config.maxInFlight()) {
                running++;
                start(message);
                return Uni.createFrom().voidItem();
            }
            slot = new CompletableFuture<>();
            waiting.add(new Waiting(message, slot));
        } finally {
            lock.unlock();
        }
        // Resume the stream on the event loop it came from, not on the virtual thread that frees the slot.
        return VertxContexts.backToCaller(Uni.createFrom().completionStage(slot));
    }

    /** Runs in progress now. */
    public int running() {
        lock.lock();
        try {
            return running;
        } finally {
            lock.unlock();
        }
    }

    /** Whether a run could start now (not draining, a slot free). */
    public boolean hasFreeSlot() {
        return !draining && running() < config.maxInFlight();
    }

    /** Whether the worker is shutting down and refuses new runs. */
    public boolean isDraining() {
        return draining;
    }

    /** Whether shutdown has begun and its grace period is over: retries of runs in progress give up. */
    public boolean isPastGracePeriod() {
        return draining && System.nanoTime() - drainDeadline > 0;
    }

    /** Refuses new runs from now on; the grace period starts now. */
    public void startDraining() {
        if (!draining) {
            drainDeadline = System.nanoTime() + config.shutdownGracePeriod().toNanos();
            draining = true;
            LOG.infof("draining: no new runs; %d in progress get up to %s to finish", running(), config.shutdownGracePeriod());
        }
    }

    /** Starts draining if needed and waits for the runs in progress until the grace period ends; true if none is left. */
    public boolean awaitIdle() {
        startDraining();
        lock.lock();
        try {
            while (running > 0) {
                long left = drainDeadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                idle.awaitNanos(left);
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return running == 0;
        } finally {
            lock.unlock();
        }
    }

    private void start(Message<byte[]> message) {
        executor.execute(() -> {
            try {
                runner.run(message);
            } catch (Throwable t) {
                LOG.errorf(t, "a run ended with an unexpected error; its record stays uncommitted");
            } finally {
                release();
            }
        });
    }

    private void release() {
        Waiting next;
        lock.lock();
        try {
            next = waiting.poll();
            if (next != null && !draining) {
                start(next.message()); // the slot passes straight to the waiting record
            } else {
                running--;
                if (running == 0) {
                    idle.signalAll();
                }
            }
        } finally {
            lock.unlock();
        }
        if (next != null) {
            next.slot().complete(null);
        }
    }

    @PreDestroy
    void stop() {
        awaitIdle();
        executor.shutdown();
        try {
            if (!executor.awaitTermination(1, TimeUnit.SECONDS)) {
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
