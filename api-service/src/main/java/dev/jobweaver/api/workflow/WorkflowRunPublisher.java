package dev.jobweaver.api.workflow;

import dev.jobweaver.api.outbox.RowOutbox;
import dev.jobweaver.common.event.WorkflowRunEvent;
import dev.jobweaver.common.messaging.Channels;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.Record;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.jboss.logging.Logger;

/**
 * Publishes a run's asks ({@link WorkflowRunEvent} START and CANCEL) to {@code workflow-runs}, keyed by the run's id,
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
public class WorkflowRunPublisher {

    private static final Logger LOG = Logger.getLogger(WorkflowRunPublisher.class);

    @Inject @Channel(Channels.WORKFLOW_RUNS_OUT) MutinyEmitter<Record<String, byte[]>> emitter;
    @Inject WorkflowRunPublications publications;
    @Inject RowOutbox outbox;

    /**
     * Publishes {@code asks} in order; completes once Kafka acknowledged them all and the change version is recorded
     * as published, or fails (the row stays unpublished for the republisher).
     */
    public Uni<Void> publish(RunAsks asks) {
        return outbox.publish(emitter, "the asks of workflow run " + asks.runId(), null, asks.events().stream()
                        .map(event -> new RowOutbox.Outgoing(event.runId().toString(), event, event.traceparent()))
                        .toList(),
                () -> publications.published(asks.runId(), asks.changeVersion()));
    }

    /** {@link #publish}, without the caller waiting; a failure is logged and left to the republisher. */
    public void publishLater(RunAsks asks) {
        RowOutbox.later(LOG, publish(asks),
                () -> "the asks of workflow run %s (change %d)".formatted(asks.runId(), asks.changeVersion()));
    }
}
