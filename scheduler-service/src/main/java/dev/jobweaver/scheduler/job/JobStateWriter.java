package dev.jobweaver.scheduler.job;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.scheduler.job.store.JobUpdates;
import io.opentelemetry.context.Context;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Writes a transition of a job inside the caller's transaction and publishes its events.
 *
 * <p>Dual-write rule: the row is updated (optimistically, on its version), then the status event (and the dead
 * letter of a {@code FAILED} job) is published and acknowledged by Kafka, and only then does the caller commit.
 * A crash or a Kafka failure before the commit rolls the row back; the work is redone later and publishes the
 * same events again (same version, same eventIds). A crash between the commit and the consumer's ack makes the
 * outcome come back; it is then seen as already applied and {@link #publish} sends the current status again,
 * so no status event is ever lost, at worst duplicated (readers keep the highest version).
 */
@ApplicationScoped
public class JobStateWriter {

    private final JobUpdates updates;
    private final JobEventPublisher publisher;

    public JobStateWriter(JobUpdates updates, JobEventPublisher publisher) {
        this.updates = updates;
        this.publisher = publisher;
    }

    /** Updates {@code current} to {@code next} in {@code tx}, then publishes and awaits the events of {@code next}. */
    public Uni<JobExecution> write(SqlConnection tx, JobExecution current, JobExecution next, Context trace) {
        return updates.update(tx, next, current.version())
                .chain(() -> publish(next, trace))
                .replaceWith(next);
    }

    /** Publishes a dispatched attempt: its run and its {@code RUNNING} status, both acknowledged by Kafka. */
    public Uni<Void> publishAttempt(JobExecution attempt, JsonNode payload, Context trace) {
        return Uni.join().all(publisher.run(JobStateMachine.runEvent(attempt, payload), trace),
                        publisher.status(JobStateMachine.statusEvent(attempt), trace))
                .andFailFast().replaceWithVoid();
    }

    /**
     * Publishes the events of the job's state: status (its version) and, if FAILED, the dead letter. Used for a new
     * state written by the caller, and to re-publish the current state (same version, same eventIds).
     */
    public Uni<Void> publish(JobExecution job, Context trace) {
        Uni<Void> status = publisher.status(JobStateMachine.statusEvent(job), trace);
        if (!JobStateMachine.isDeadLetter(job)) {
            return status;
        }
        return Uni.join().all(status, publisher.deadLetter(JobStateMachine.deadLetter(job), job.version(), trace))
                .andFailFast().replaceWithVoid();
    }
}
