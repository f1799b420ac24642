package dev.jobweaver.scheduler.observability;

/**
 * The jobs of one queue waiting to run at one refresh: due and {@code PENDING}, or set aside until a live worker
 * serves them.
 *
 * @param queue the queue
 * @param depth how many wait
 * @param oldestAgeSeconds how long the one waiting longest has waited: since it became due, or for a job set aside,
 *                         since it was first set aside
 */
public record QueueRow(String queue, long depth, double oldestAgeSeconds) {
}
