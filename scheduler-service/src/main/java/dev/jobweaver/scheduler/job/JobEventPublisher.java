package dev.jobweaver.scheduler.job;

import dev.jobweaver.common.event.DeadLetterEvent;
import dev.jobweaver.common.event.JobCommandEvent;
import dev.jobweaver.common.event.JobStatusChangedEvent;
import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.common.messaging.Channels;
import dev.jobweaver.common.messaging.EventIds;
import dev.jobweaver.common.messaging.OutgoingRecords;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.worker.LiveWorkers;
import dev.jobweaver.scheduler.worker.WorkerPool;
import io.opentelemetry.context.Context;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.eclipse.microprofile.reactive.messaging.Channel;

/**
 * Publishes the scheduler's events, keyed by jobId, with an {@code eventId} header and the job's trace context.
 *
 * <p>Every returned {@link Uni} completes only when Kafka acknowledged the record ({@code acks=all}); callers
 * commit their transaction after that (see the dual-write rule in the services' javadoc and the README).
 *
 * <p>One producer for the four topics ({@link Channels#SCHEDULER_EVENTS_OUT}; each record names its topic): a
 * dispatch round sends a run and a {@code RUNNING} status per job and waits for both, and with one producer they
 * share the round's produce request and its acknowledgement instead of two of each. Order per topic-partition, the
 * only order readers rely on, is the producer's as before.
 */
@ApplicationScoped
public class JobEventPublisher {

    private final MutinyEmitter<Object> events;
    private final WorkerPool workers;

    public JobEventPublisher(@Channel(Channels.SCHEDULER_EVENTS_OUT) MutinyEmitter<Object> events,
                             WorkerPool workers) {
        this.events = events;
        this.workers = workers;
    }

    /**
     * Publishes a run on its queue's topic ({@link Topics#runJob}); its eventId is derived from (jobId, attempt), so a
     * re-dispatch carries the same one. The partition is its key's, unless only some of the queue's live workers
     * declare its type: then one of the partitions those hold ({@link LiveWorkers#partitionsFor}), the same for every
     * dispatch of the job while they hold them.
     */
    public Uni<Void> run(RunJobEvent event, Context trace) {
        String queue = event.control() == null ? null : event.control().queue();
        int[] aimed = workers.live().partitionsFor(queue, event.jobType().name());
        int partition = aimed == null ? -1 : aimed[Math.floorMod(event.jobId().hashCode(), aimed.length)];
        return events.sendMessage(OutgoingRecords.keyed(Topics.runJob(queue), partition, event.jobId(),
                event.eventId(), event, trace));
    }

    /** Publishes a status change; its eventId is derived from (jobId, version). */
    public Uni<Void> status(JobStatusChangedEvent event, Context trace) {
        return send(Topics.JOB_STATUS, event.jobId(), EventIds.statusEventId(event.jobId(), event.version()), event,
                trace);
    }

    /**
     * Publishes the dead letter of the job's {@code FAILED} state at {@code version}: its eventId is derived from
     * (jobId, version), so a re-publication of that state repeats it and a job dead-lettered again after a requeue
     * gets a new one.
     */
    public Uni<Void> deadLetter(DeadLetterEvent event, long version, Context trace) {
        return send(Topics.JOB_DEAD_LETTER, event.jobId(), deadLetterEventId(event.jobId(), version), event, trace);
    }

    /**
     * Publishes the tombstone of a deleted job on {@code job-status} (a null value under its key), so that readers,
     * and a compacted topic, forget it; its eventId is derived from the jobId, so a redelivered delete repeats it.
     */
    public Uni<Void> statusTombstone(UUID jobId, Context trace) {
        return send(Topics.JOB_STATUS, jobId,
                UUID.nameUUIDFromBytes(("deleted:" + jobId).getBytes(StandardCharsets.UTF_8)), null, trace);
    }

    /** Publishes a command to every worker on {@code worker-commands}, with a fresh eventId. */
    public Uni<Void> workerCommand(JobCommandEvent command, Context trace) {
        return send(Topics.WORKER_COMMANDS, command.jobId(), UUID.randomUUID(), command, trace);
    }

    /** The eventId of the dead letter of {@code jobId} when it became {@code FAILED} at {@code version}. */
    public static UUID deadLetterEventId(UUID jobId, long version) {
        return UUID.nameUUIDFromBytes(("dead-letter:" + jobId + ":" + version).getBytes(StandardCharsets.UTF_8));
    }

    private Uni<Void> send(String topic, UUID jobId, UUID eventId, Object payload, Context trace) {
        return events.sendMessage(OutgoingRecords.keyed(topic, jobId, eventId, payload, trace));
    }
}
