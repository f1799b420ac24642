package dev.jobweaver.bench;

/** The priority levels a job may ask for ({@code "priority"} of {@code POST /api/jobs}), highest first. */
public enum Priority {
    /** Taken first by 70% of the dispatch claims. */
    HIGH,
    /** The default. */
    NORMAL,
    /** Taken first by 10% of the dispatch claims. */
    LOW
}
