package dev.jobweaver.worker.run;

import dev.jobweaver.common.event.JobCompletedEvent;
import dev.jobweaver.common.event.JobFailedEvent;
import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.common.messaging.Channels;
import dev.jobweaver.common.messaging.EventIds;
import dev.jobweaver.common.messaging.OutgoingRecords;
import dev.jobweaver.worker.store.ExecutionAttempt;
import dev.jobweaver.worker.store.ExecutionOutcome;
import io.opentelemetry.context.Context;
import io.smallrye.reactive.messaging.MutinyEmitter;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import org.eclipse.microprofile.reactive.messaging.Channel;

/**
 * Publishes the outcome of a run, as stored in {@code execution_attempts}, to {@code job-completed} or
 * {@code job-failed}: key jobId, header eventId = {@link EventIds#outcomeEventId} of the run, so a re-published
 * outcome carries the same id, and the same result: the stored one. Returns only once Kafka acknowledged it (the
 * producer uses {@code acks=all}).
 */
@ApplicationScoped
class OutcomePublisher {

    @Inject @Channel(Channels.JOB_COMPLETED_OUT) MutinyEmitter<JobCompletedEvent> completed;
    @Inject @Channel(Channels.JOB_FAILED_OUT) MutinyEmitter<JobFailedEvent> failed;

    /** Publishes the outcome of {@code attempt} (closed, never {@code RUNNING}) and waits for Kafka's acknowledgement. */
    public void publish(ExecutionAttempt attempt, Duration timeout) {
        if (attempt.outcome() == ExecutionOutcome.RUNNING) {
            throw new IllegalArgumentException("run " + attempt.eventId() + " has no outcome yet");
        }
        UUID eventId = EventIds.outcomeEventId(attempt.eventId());
        // The send happens on the connector's threads: carry the job's trace context explicitly.
        Context trace = Context.current();
        if (attempt.outcome() == ExecutionOutcome.SUCCESS) {
            JobCompletedEvent event = new JobCompletedEvent(attempt.eventId(), attempt.jobId(), attempt.attempt(),
                    attempt.traceId(), attempt.startedAt(), attempt.finishedAt(), attempt.workerId(), attempt.result());
            completed.sendMessage(OutgoingRecords.keyed(attempt.jobId(), eventId, event, trace))
                    .await().atMost(timeout);
        } else {
            JobFailedEvent event = new JobFailedEvent(attempt.eventId(), attempt.jobId(), attempt.attempt(),
                    attempt.traceId(), attempt.errorMessage(), attempt.startedAt(), attempt.finishedAt(),
                    attempt.workerId());
            failed.sendMessage(OutgoingRecords.keyed(attempt.jobId(), eventId, event, trace)).await().atMost(timeout);
        }
    }

    /**
     * Hands run {@code run} back unrun, saying {@code why}: a {@code job-failed} event with {@code handedBack}, which
     * the scheduler answers by dispatching the run again to a worker that declares its type. Nothing is stored: a
     * redelivered record hands the run back again, with the same eventId, and the scheduler applies it once.
     */
    public void handBack(RunJobEvent run, String traceId, String workerId, String why, Duration timeout) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        JobFailedEvent event = new JobFailedEvent(run.eventId(), run.jobId(), run.attempt(), traceId, why, now, now,
                workerId, true);
        failed.sendMessage(OutgoingRecords.keyed(run.jobId(), EventIds.outcomeEventId(run.eventId()), event,
                Context.current())).await().atMost(timeout);
    }
}
