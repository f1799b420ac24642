package dev.jobweaver.worker.testing;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;

/**
 * The highest value a gauge reaches while a test runs, sampled every 5 ms from the moment it is made until it is
 * closed. It samples on a platform thread of its own, so that carrier threads busy with runs cannot delay a sample.
 */
public final class Peak implements AutoCloseable {

    private final AtomicInteger highest = new AtomicInteger();
    private final AtomicBoolean sampling = new AtomicBoolean(true);
    private final Thread sampler;

    private Peak(IntSupplier gauge) {
        sampler = Thread.ofPlatform().daemon().start(() -> {
            while (sampling.get()) {
                highest.accumulateAndGet(gauge.getAsInt(), Math::max);
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
    }

    /** Starts sampling {@code gauge}. */
    public static Peak of(IntSupplier gauge) {
        return new Peak(gauge);
    }

    /** The highest value sampled so far; after {@link #close}, the highest of the whole test. */
    public int highest() {
        return highest.get();
    }

    /** Stops sampling and waits for the last sample. */
    @Override
    public void close() throws InterruptedException {
        sampling.set(false);
        sampler.join();
    }
}
