package dev.jobweaver.api.workflow;

import dev.jobweaver.api.outbox.RowOutbox;
import dev.jobweaver.api.outbox.RowPublisher;
import dev.jobweaver.common.event.WorkflowRunEvent;
import dev.jobweaver.common.messaging.Channels;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.Record;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.reactive.messaging.Channel;

/**
 * Publishes a run's asks ({@link WorkflowRunEvent} START and CANCEL, RETRY, and the retention purge's PURGE) to
 * {@code workflow-runs}, keyed by the run's id,
 * one after the other; once Kafka acknowledged the last, records it in the run's row, which is the outbox
 * ({@link RowOutbox} states the guarantees and threads). START carries the run's {@code traceparent} as its header
 * too, so the scheduler's span joins the run's trace.
 *
 * <p>An emitter, as for schedules: nothing waits for the answer (the request was answered on its commit), and an ask
 * sent twice is harmless: the scheduler stores a run once by its id, and a second CANCEL cancels nothing more. What is
 * not acknowledged stays {@code published_version < change_version} in the row, and {@link WorkflowRunRepublisher}
 * publishes it again.
 */
@ApplicationScoped
public class WorkflowRunPublisher extends RowPublisher<RunAsks> {

    @Inject WorkflowRunPublications publications;

    @Inject
    WorkflowRunPublisher(RowOutbox outbox,
                         @Channel(Channels.WORKFLOW_RUNS_OUT) MutinyEmitter<Record<String, byte[]>> emitter) {
        super(outbox, emitter, WorkflowRunPublisher.class);
    }

    /**
     * Sends {@code retry} (a {@code RETRY}, which no row records: the caller waits for it under the run's lock);
     * completes once Kafka acknowledged it, or fails.
     */
    public Uni<Void> retry(WorkflowRunEvent retry) {
        return send(new Change("the retry of workflow run " + retry.runId(), null, null,
                List.of(new RowOutbox.Outgoing(retry.runId().toString(), retry, null)),
                () -> Uni.createFrom().voidItem()));
    }

    /**
     * Sends a {@code PURGE} of the finished run {@code runId}, whose retention ended, so that the scheduler forgets
     * it too; completes once Kafka acknowledged it. Nothing is recorded: the caller deletes the run's row after, and a
     * purge sent again (the delete did not happen) is harmless.
     */
    public Uni<Void> purge(UUID runId) {
        return send(new Change("the purge of workflow run " + runId, null, null,
                List.of(new RowOutbox.Outgoing(runId.toString(), WorkflowRunEvent.purge(runId, Instant.now()), null)),
                () -> Uni.createFrom().voidItem()));
    }

    /** {@code asks} in order; recorded once Kafka acknowledged them all. */
    @Override
    protected Change change(RunAsks asks) {
        return new Change("the asks of workflow run " + asks.runId(), "change " + asks.changeVersion(), null,
                asks.events().stream()
                        .map(event -> new RowOutbox.Outgoing(event.runId().toString(), event, event.traceparent()))
                        .toList(),
                () -> publications.published(asks.runId(), asks.changeVersion()));
    }
}
