package dev.jobweaver.worker.handler.simulation;

import dev.jobweaver.worker.WorkerConfig;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Bounds the COMPUTE steps running at once ({@code jobweaver.worker.compute-permits}, one per processor by default) and
 * runs their loops on platform threads.
 *
 * <p>Runs are virtual threads and the in-flight bound is large because most runs only wait; COMPUTE is the one step
 * that holds a CPU. Without this bound a flood of COMPUTE jobs would share the CPU between hundreds of half-done loops,
 * each slower than its time bound. A permit is held only for the step, and waiting for one counts against the run's
 * deadline.
 *
 * <p>The loop itself runs on a platform thread ({@code jobweaver-compute-N}) while the run's virtual thread parks:
 * virtual threads are not time-sliced, so loops on them would keep the carrier threads (one per processor, as many as
 * the permits) and stall every other run, its database replies, acks and wake-ups, until they end; {@code
 * Thread.yield()} in the loop does not help (measured on JDK 25: a sleeping virtual thread did not run until both
 * loops ended). Platform threads are time-sliced by the operating system.
 */
@ApplicationScoped
class ComputePermits {

    private final int permits;
    private final Semaphore semaphore;
    /** At most {@code permits} loops at a time reach it, so it never holds more threads than that for long. */
    private final ExecutorService loops = Executors.newCachedThreadPool(
            Thread.ofPlatform().daemon().name("jobweaver-compute-", 0).factory());

    @Inject
    public ComputePermits(WorkerConfig config, MeterRegistry registry) {
        this(config.computePermits().orElseGet(() -> Runtime.getRuntime().availableProcessors()));
        Gauge.builder("jobweaver.worker.compute.permits.in.use", this, ComputePermits::inUse)
                .description("COMPUTE steps running now")
                .register(registry);
        Gauge.builder("jobweaver.worker.compute.waiting", this, ComputePermits::waiting)
                .description("Runs waiting for a COMPUTE permit")
                .register(registry);
    }

    ComputePermits(int permits) {
        if (permits < 1) {
            throw new IllegalArgumentException("jobweaver.worker.compute-permits must be at least 1, not " + permits);
        }
        this.permits = permits;
        // Fair: a COMPUTE step waits its turn instead of being overtaken until its deadline passes.
        this.semaphore = new Semaphore(permits, true);
    }

    /** Waits for a permit until {@code deadline} ({@link System#nanoTime()}); false if the deadline came first. */
    public boolean acquire(long deadline) throws InterruptedException {
        return semaphore.tryAcquire(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    }

    /** Runs {@code loop} on a compute thread (call it holding a permit); the caller waits for it with {@link Future#get}. */
    public <T> Future<T> submit(Callable<T> loop) {
        return loops.submit(loop);
    }

    /** Gives back a permit taken by {@link #acquire}. */
    public void release() {
        semaphore.release();
    }

    /** The bound. */
    public int permits() {
        return permits;
    }

    /** COMPUTE steps holding a permit now. */
    public int inUse() {
        return permits - semaphore.availablePermits();
    }

    /** Runs waiting for a permit now (an estimate, as {@link Semaphore#getQueueLength()}). */
    public int waiting() {
        return semaphore.getQueueLength();
    }

    @PreDestroy
    void stop() {
        loops.shutdownNow();
    }
}
