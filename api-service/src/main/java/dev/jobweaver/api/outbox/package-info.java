/**
 * The API's outbox mechanism: how a change committed to the database reaches Kafka without a distributed transaction.
 * It knows no feature; the features plug into it. Every event the API publishes after a commit goes one of two ways:
 *
 * <h2>Two storage styles, one loop</h2>
 * <ul>
 *   <li><b>An outbox table</b>: jobs keep a row per unpublished {@code job-created} event next to the job, published by
 *       their own relay right after the commit (the job feature's {@code job.outbox} package).</li>
 *   <li><b>Rows that carry their own state</b> ({@code published_version < version}, or a deleted row awaiting its
 *       tombstone): each feature's publisher (a {@link dev.jobweaver.api.outbox.RowPublisher}) sends with
 *       {@link dev.jobweaver.api.outbox.RowOutbox} right after its commit and records the acknowledged version in the
 *       row; its republisher (a {@link dev.jobweaver.api.outbox.RowRepublisher}) finds what is left, with the rounds its
 *       {@link dev.jobweaver.api.outbox.RepublishConfig} sets.</li>
 * </ul>
 * Both kinds of leftovers are found by the same loop: the job outbox's sweeper and each feature's republisher are
 * {@link dev.jobweaver.api.outbox.UnpublishedEvents}, which {@code Republisher} schedules (each with its own identity
 * and interval) and drains round after round.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li><b>At least once.</b> An event is marked published (its row deleted, or its version recorded) only after Kafka
 *       acknowledged it ({@code acks=all}). A crash between the commit and the acknowledgement leaves it unpublished
 *       in the database, for the next round of its source; a crash between the acknowledgement and the mark publishes
 *       the event again.</li>
 *   <li><b>Repeats are harmless.</b> The scheduler ingests a job once by its jobId; the readers of schedules, tenant
 *       limits and workflow runs keep the highest version per key, and take an ask once.</li>
 *   <li><b>Order per key.</b> Every topic is keyed by its entity (jobId, scheduleId, tenant, runId). A row's events
 *       carry its version, so a late repeat never wins over a newer one; a run's asks are sent one after the other.</li>
 * </ul>
 *
 * <h2>Threads</h2>
 * {@code RowOutbox} never blocks and may be called on an event loop; a change's bookkeeping runs from Kafka's
 * acknowledgement callback. The republish loop runs on a Vert.x event loop, one run of a source at a time. Nothing here
 * blocks an event loop. Each class's javadoc says which of its methods run where.
 */
package dev.jobweaver.api.outbox;
