package dev.jobweaver.bench;

/** What a benchmark job does, the request body that makes it do so, and how it must end. */
public enum JobKind {
    /** One LOG step. */
    NOOP("{\"jobType\":\"SIMULATION\",\"payload\":{\"steps\":[{\"action\":\"LOG\",\"message\":\"bench\"}]},"
            + "\"maxRetryCount\":3}", 1),
    /** Sleeps 5 s. */
    SLEEPER("{\"jobType\":\"SIMULATION\",\"payload\":{\"steps\":[{\"action\":\"SLEEP\",\"durationMs\":5000}]},"
            + "\"maxRetryCount\":3}", 1),
    /** Fails its first attempt, passes the second ({@code FAIL} with {@code times: 1}). */
    FLAKY("{\"jobType\":\"SIMULATION\",\"payload\":{\"steps\":[{\"action\":\"FAIL\",\"message\":\"flaky\",\"times\":1}]},"
            + "\"maxRetryCount\":3}", 2),
    /** Sleeps 30 s without a retry: a run the cancel workload interrupts. */
    LONG_SLEEPER("{\"jobType\":\"SIMULATION\",\"payload\":{\"steps\":[{\"action\":\"SLEEP\",\"durationMs\":30000}]},"
            + "\"maxRetryCount\":0}", 1),
    /** Sleeps {@value #SHORT_SLEEP_MS} ms: the limits workload's jobs under a limit that binds. */
    SHORT_SLEEPER("{\"jobType\":\"SIMULATION\",\"payload\":{\"steps\":[{\"action\":\"SLEEP\",\"durationMs\":"
            + JobKind.SHORT_SLEEP_MS + "}]},\"maxRetryCount\":3}", 1);

    /** How long a {@link #SHORT_SLEEPER} sleeps, milliseconds. */
    public static final long SHORT_SLEEP_MS = 200;

    private final String body;
    private final int expectedAttempts;

    JobKind(String body, int expectedAttempts) {
        this.body = body;
        this.expectedAttempts = expectedAttempts;
    }

    /** The {@code POST /api/jobs} body. */
    public String body() {
        return body;
    }

    /** How many attempts (and execution rows) the job must have when it is COMPLETED. */
    public int expectedAttempts() {
        return expectedAttempts;
    }

    /**
     * The kind of job number {@code index} when a {@code fraction} of the jobs are {@code special}, spread evenly
     * (with 5%, jobs 19, 39, 59, ... are special), so every part of a run gets its share.
     */
    public static JobKind mix(int index, double fraction, JobKind special) {
        if (fraction <= 0) {
            return NOOP;
        }
        long before = (long) Math.floor(index * fraction + 1e-9);
        long after = (long) Math.floor((index + 1) * fraction + 1e-9);
        return after > before ? special : NOOP;
    }
}
