package dev.jobweaver.worker.testing;

import dev.jobweaver.worker.WorkerConfig;
import java.time.Duration;

/** {@code jobweaver.worker.run} as a plain object: the defaults, with the time-bound slack of the test's choosing. */
public record RunSettings(Duration timeBoundSlack) implements WorkerConfig.Run {

    /** The defaults. */
    public static RunSettings defaults() {
        return new RunSettings(Duration.ofSeconds(30));
    }

    @Override
    public long computeNanosPerIteration() {
        return 20;
    }

    @Override
    public Duration publishTimeout() {
        return Duration.ofSeconds(30);
    }

    @Override
    public Duration databaseTimeout() {
        return Duration.ofSeconds(10);
    }

    @Override
    public int attemptBatchSize() {
        return 256;
    }

    @Override
    public int attemptBatchesInFlight() {
        return 1;
    }
}
