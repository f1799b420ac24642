/**
 * The job outbox: how an accepted job's {@code job-created} event reaches Kafka without a distributed transaction.
 *
 * <p>{@code job_outbox} holds a row per unpublished job, inserted in the same statement as the job (by
 * {@code SubmissionStore}, for a whole group commit) and deleted once Kafka acknowledged the event.
 * {@link dev.jobweaver.api.job.outbox.OutboxRelay} publishes a group right after its commit and keeps what Kafka refused
 * for a retry in memory; {@code OutboxCleanup} deletes acknowledged rows in batches;
 * {@link dev.jobweaver.api.job.outbox.OutboxSweeper} publishes the rows no relay delivers any more (it is one of the
 * outbox's {@code UnpublishedEvents}, run by its republish loop); {@link dev.jobweaver.api.job.outbox.OutboxBacklog}
 * bounds what waits (over it, submissions are refused with {@link dev.jobweaver.api.job.outbox.OutboxFullException});
 * {@code OutboxStore} holds the table's SQL; {@code RelayReadinessCheck} shows the relay's state in readiness.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li><b>At least once.</b> A row is deleted only after Kafka acknowledged its event ({@code acks=all}). A crash
 *       between the commit and the acknowledgement leaves the row, which is swept once no relay can still be
 *       delivering it (older than the relay's bound plus the sweep margin, or at once when the same named instance
 *       restarts). A crash between the acknowledgement and the delete publishes the event again; the scheduler
 *       ingests a job once by its jobId.</li>
 *   <li><b>Order per key.</b> {@code job-created} is keyed by jobId and a job has one event; a relay publishes a group
 *       in acceptance order.</li>
 *   <li><b>The hot path's cost.</b> {@code POST /api/jobs} adds no statement and no round trip for its outbox: the row
 *       is part of the group's insert, the publish happens after the answer, and the deletes of many groups share one
 *       statement.</li>
 * </ul>
 *
 * <h2>Threads</h2>
 * The relay is handed a group on the event loop that finished its insert and returns at once; the producer is fed from
 * a virtual thread and answers on Vert.x contexts. The sweeper runs on a Vert.x event loop, one sweep at a time.
 * Nothing here blocks an event loop. Each class's javadoc says which of its methods run where.
 */
package dev.jobweaver.api.job.outbox;
