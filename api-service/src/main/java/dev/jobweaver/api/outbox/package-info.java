/**
 * The API's outbox: how a change committed to the database reaches Kafka without a distributed transaction. Every
 * event the API publishes after a commit goes through here: jobs ({@code job-created}), and the rows that are their
 * own outbox (schedules, tenant limits, workflow runs).
 *
 * <h2>Two storage styles, one mechanism</h2>
 * <ul>
 *   <li><b>Jobs</b> have an outbox table, {@code job_outbox}: a row per unpublished job, inserted in the same statement
 *       as the job (by {@code SubmissionStore}, for a whole group commit), deleted once Kafka acknowledged the event.
 *       {@link dev.jobweaver.api.outbox.OutboxRelay} publishes a group right after its commit and keeps what Kafka
 *       refused for a retry in memory; {@link dev.jobweaver.api.outbox.OutboxCleanup} deletes acknowledged rows in
 *       batches; {@link dev.jobweaver.api.outbox.OutboxSweeper} publishes the rows no relay delivers any more;
 *       {@link dev.jobweaver.api.outbox.OutboxBacklog} bounds what waits (over it, submissions are refused with
 *       {@link dev.jobweaver.api.outbox.OutboxFullException}); {@code OutboxStore} holds the table's SQL.</li>
 *   <li><b>Rows that carry their own state</b> ({@code published_version < version}, or a deleted row awaiting its
 *       tombstone): each feature's publisher (a {@link dev.jobweaver.api.outbox.RowPublisher}) sends with
 *       {@link dev.jobweaver.api.outbox.RowOutbox} right after its commit and records the acknowledged version in the
 *       row; its republisher (a {@link dev.jobweaver.api.outbox.RowRepublisher}) finds what is left.</li>
 * </ul>
 * Both kinds of leftovers are found by the same loop: the job sweeper and each feature's republisher are
 * {@link dev.jobweaver.api.outbox.UnpublishedEvents}, which {@code Republisher} schedules (each with its own identity
 * and interval) and drains round after round.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li><b>At least once.</b> An event is marked published (its row deleted, or its version recorded) only after Kafka
 *       acknowledged it ({@code acks=all}). A crash between the commit and the acknowledgement leaves it unpublished
 *       in the database: a job's row is swept once no relay can still be delivering it (older than the relay's bound
 *       plus the sweep margin, or at once when the same named instance restarts), a row's change at the next
 *       republisher round. A crash between the acknowledgement and the mark publishes the event again.</li>
 *   <li><b>Repeats are harmless.</b> The scheduler ingests a job once by its jobId; the readers of schedules, tenant
 *       limits and workflow runs keep the highest version per key, and take an ask once.</li>
 *   <li><b>Order per key.</b> Every topic is keyed by its entity (jobId, scheduleId, tenant, runId). A job has one
 *       event, and a relay publishes a group in acceptance order; a row's events carry its version, so a late repeat
 *       never wins over a newer one; a run's asks are sent one after the other.</li>
 *   <li><b>The hot path's cost.</b> {@code POST /api/jobs} adds no statement and no round trip for its outbox: the row
 *       is part of the group's insert, the publish happens after the answer, and the deletes of many groups share one
 *       statement.</li>
 * </ul>
 *
 * <h2>Threads</h2>
 * The relay is handed a group on the event loop that finished its insert and returns at once; the producer is fed
 * from a virtual thread and answers on Vert.x contexts. The republish loop runs on a Vert.x event loop, one run of a
 * source at a time. Nothing here blocks an event loop. Each class's javadoc says which of its methods run where.
 */
package dev.jobweaver.api.outbox;
