package dev.jobweaver.scheduler.observability;

/**
 * The due {@code PENDING} jobs of one priority and tenant at one refresh.
 *
 * @param priority the jobs' priority ({@code HIGH}, {@code NORMAL}, {@code LOW})
 * @param tenant their tenant
 * @param depth how many are due and waiting
 * @param oldestAgeSeconds how long the one due longest has waited since it became due
 */
public record BacklogRow(String priority, String tenant, long depth, double oldestAgeSeconds) {
}
