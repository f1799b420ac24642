package dev.jobweaver.api.workflow.messaging;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.workflow.persistence.WorkflowRunPublications;
import dev.jobweaver.api.workflow.service.RunAsks;
import dev.jobweaver.common.event.WorkflowRunEvent;
import dev.jobweaver.common.messaging.Channels;
import dev.jobweaver.common.messaging.Headers;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.Record;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * Publishes a run's asks ({@link WorkflowRunEvent} START and CANCEL) to {@code workflow-runs}, keyed by the run's id,
 * one after the other; once Kafka acknowledged the last ({@code acks=all}), records it in the run's row, which is the
 * outbox. START carries the run's {@code traceparent} as its header too, so the scheduler's span joins the run's trace.
 *
 * <p>An emitter, as for schedules: nothing waits for the answer (the request was answered on its commit), and an ask
 * sent twice, by the sink's retry or by the republisher while the first send was in flight, is harmless: the scheduler
 * stores a run once by its id, and a second CANCEL cancels nothing more. What is not acknowledged stays
 * {@code published_version < change_version} in the row, and {@link WorkflowRunRepublisher} publishes it again.
 *
 * <p>Never blocks: {@link #publish} may be called on an event loop; the bookkeeping runs on the reactive SQL client
 * from Kafka's callback.
 */
@ApplicationScoped
public class WorkflowRunPublisher {

    private static final Logger LOG = Logger.getLogger(WorkflowRunPublisher.class);

    private final MutinyEmitter<Record<String, byte[]>> emitter;
    private final WorkflowRunPublications publications;
    private final ObjectMapper mapper;

    public WorkflowRunPublisher(@Channel(Channels.WORKFLOW_RUNS_OUT) MutinyEmitter<Record<String, byte[]>> emitter,
                                WorkflowRunPublications publications, ObjectMapper mapper) {
        this.emitter = emitter;
        this.publications = publications;
        this.mapper = mapper;
    }

    /**
     * Publishes {@code asks} in order; completes once Kafka acknowledged them all and the change version is recorded
     * as published, or fails (the row stays unpublished for the republisher).
     */
    public Uni<Void> publish(RunAsks asks) {
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (WorkflowRunEvent event : asks.events()) {
            chain = chain.chain(() -> send(event));
        }
        return chain.chain(() -> publications.published(asks.runId(), asks.changeVersion())).replaceWithVoid();
    }

    /** {@link #publish}, without the caller waiting; a failure is logged and left to the republisher. */
    public void publishLater(RunAsks asks) {
        publish(asks).subscribe().with(ignored -> { }, e -> LOG.warnf(
                "the asks of workflow run %s (change %d) were not published: %s; the republisher will publish them",
                asks.runId(), asks.changeVersion(), e.getMessage()));
    }

    private Uni<Void> send(WorkflowRunEvent event) {
        byte[] value;
        try {
            value = mapper.writeValueAsBytes(event);
        } catch (JsonProcessingException e) {
            return Uni.createFrom().failure(new IllegalStateException("could not serialise a WorkflowRunEvent", e));
        }
        RecordHeaders headers = new RecordHeaders();
        headers.add(Headers.EVENT_ID, UUID.randomUUID().toString().getBytes(StandardCharsets.UTF_8));
        if (event.traceparent() != null) {
            headers.add(Headers.TRACEPARENT, event.traceparent().getBytes(StandardCharsets.UTF_8));
        }
        OutgoingKafkaRecordMetadata<String> metadata = OutgoingKafkaRecordMetadata.<String>builder()
                .withHeaders(headers)
                .build();
        return Uni.createFrom().deferred(() -> emitter.sendMessage(
                Message.of(Record.of(event.runId().toString(), value)).addMetadata(metadata)));
    }
}
