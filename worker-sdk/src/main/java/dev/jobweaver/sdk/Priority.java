package dev.jobweaver.sdk;

/**
 * How urgently the jobs of a type should start, when a job does not say: dispatch claims look at {@code HIGH} jobs first
 * most often, then {@code NORMAL}, then {@code LOW} (by the scheduler's priority weights), and no level starves.
 */
public enum Priority {
    HIGH,
    NORMAL,
    LOW
}
