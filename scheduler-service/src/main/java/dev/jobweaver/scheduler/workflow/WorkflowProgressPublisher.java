package dev.jobweaver.scheduler.workflow;

import dev.jobweaver.common.event.JobCommandEvent;
import dev.jobweaver.common.event.WorkflowProgressEvent;
import dev.jobweaver.common.messaging.Channels;
import dev.jobweaver.common.messaging.OutgoingRecords;
import dev.jobweaver.common.messaging.Topics;
import io.opentelemetry.context.Context;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.eclipse.microprofile.reactive.messaging.Channel;

/**
 * Publishes what the orchestration of workflow runs decides: a run's progress on {@code workflow-progress} (keyed by
 * runId, eventId derived from (runId, version)), and the cancel or requeue of a node's job on {@code job-commands}
 * (keyed by jobId), which the scheduler's own cancel and requeue paths apply as they apply a client's.
 *
 * <p>Through the scheduler's one producer ({@link Channels#SCHEDULER_EVENTS_OUT}, each record naming its topic). The
 * returned {@link Uni} completes when Kafka acknowledged the record; the caller commits after that.
 */
@ApplicationScoped
public class WorkflowProgressPublisher {

    @Inject @Channel(Channels.SCHEDULER_EVENTS_OUT) MutinyEmitter<Object> events;

    /** Publishes {@code event}; the same change published again (a transaction redone) carries the same eventId. */
    public Uni<Void> progress(WorkflowProgressEvent event, Context trace) {
        return send(Topics.WORKFLOW_PROGRESS, event.runId(), UUID.nameUUIDFromBytes(("workflow-progress:"
                + event.runId() + ":" + event.version()).getBytes(StandardCharsets.UTF_8)), event, trace);
    }

    /** Asks the scheduler's cancel path to cancel a node's job (a cancel of a job not ingested yet is kept for it). */
    public Uni<Void> cancelJob(JobCommandEvent command, Context trace) {
        return send(Topics.JOB_COMMANDS, command.jobId(), UUID.nameUUIDFromBytes(("workflow-cancel:"
                + command.jobId()).getBytes(StandardCharsets.UTF_8)), command, trace);
    }

    /**
     * Asks the scheduler's requeue path to run a node's job again, for its run's retry from progress version
     * {@code version} (the eventId differs between two retries of one run).
     */
    public Uni<Void> requeueJob(JobCommandEvent command, long version, Context trace) {
        return send(Topics.JOB_COMMANDS, command.jobId(), UUID.nameUUIDFromBytes(("workflow-requeue:"
                + command.jobId() + ":" + version).getBytes(StandardCharsets.UTF_8)), command, trace);
    }

    private Uni<Void> send(String topic, UUID key, UUID eventId, Object payload, Context trace) {
        return events.sendMessage(OutgoingRecords.keyed(topic, key, eventId, payload, trace));
    }
}
