package dev.jobweaver.worker.store;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;

/** Runs of the {@code execution_attempts} tests, and the bound each of their repository calls keeps. */
final class TestAttempts {

    /** Room for one repository call, or one statement, on a loaded machine. */
    static final Duration TIMEOUT = Duration.ofSeconds(30);

    private TestAttempts() {
    }

    /**
     * A run of a job of its own begun now by {@code test-worker}, at the database's microseconds so that the row read
     * back equals it.
     */
    static ExecutionAttempt running(int attempt, String traceId) {
        return ExecutionAttempt.running(UUID.randomUUID(), UUID.randomUUID(), attempt, traceId,
                Instant.now().truncatedTo(ChronoUnit.MICROS), "test-worker");
    }
}
