package dev.jobweaver.scheduler.testing;

import java.time.Duration;

/** How long the scheduler's tests wait for one thing. */
public final class Waits {

    /**
     * Room for one statement, one round or one record to come back, on a loaded 2-core machine with other test JVMs
     * beside it.
     */
    public static final Duration TIMEOUT = Duration.ofSeconds(30);

    private Waits() {
    }
}
