package dev.jobweaver.api.schedule.messaging;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.schedule.persistence.SchedulePublications;
import dev.jobweaver.common.event.EventRules;
import dev.jobweaver.common.event.ScheduleEvent;
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
 * Publishes a schedule's timing ({@link ScheduleEvent}) to {@code schedules}, keyed by its id, and a deleted
 * schedule's tombstone; once Kafka acknowledged ({@code acks=all}), records it in the row, which is the outbox.
 *
 * <p>An emitter on {@code schedules-out}, not a producer of its own as for {@code job-created}: nothing waits for the
 * answer (the request was answered on its commit), and a record sent twice, by the sink's retry or by the republisher
 * while the first send was in flight, is harmless: readers keep the highest version per schedule, and a tombstone
 * repeated deletes nothing more. What is not acknowledged stays {@code published_version < version} (or deleted) in the
 * row, and {@link ScheduleRepublisher} publishes it again.
 *
 * <p>Never blocks: {@link #publish} and {@link #tombstone} may be called on an event loop; the bookkeeping runs on the
 * reactive SQL client from Kafka's callback.
 */
@ApplicationScoped
public class SchedulePublisher {

    private static final Logger LOG = Logger.getLogger(SchedulePublisher.class);

    private final MutinyEmitter<Record<String, byte[]>> emitter;
    private final SchedulePublications publications;
    private final ObjectMapper mapper;

    public SchedulePublisher(@Channel(Channels.SCHEDULES_OUT) MutinyEmitter<Record<String, byte[]>> emitter,
                             SchedulePublications publications, ObjectMapper mapper) {
        this.emitter = emitter;
        this.publications = publications;
        this.mapper = mapper;
    }

    /**
     * Publishes {@code event}; completes once Kafka acknowledged it and its version is recorded as published, or fails
     * (the row stays unpublished for the republisher).
     */
    public Uni<Void> publish(ScheduleEvent event) {
        String problem = EventRules.problem(event);
        if (problem != null) {
            // the scheduler would quarantine it: a bug here, not the client's doing
            return Uni.createFrom().failure(new IllegalStateException("the timing of schedule " + event.scheduleId()
                    + " breaks a rule: " + problem));
        }
        byte[] value;
        try {
            value = mapper.writeValueAsBytes(event);
        } catch (JsonProcessingException e) {
            return Uni.createFrom().failure(new IllegalStateException("could not serialise a ScheduleEvent", e));
        }
        return send(event.scheduleId(), value)
                .chain(() -> publications.published(event.scheduleId(), event.version()))
                .replaceWithVoid();
    }

    /**
     * Publishes the tombstone of a deleted schedule, then removes its row; completes once both are done, or fails (a
     * deleted row stays for the republisher).
     */
    public Uni<Void> tombstone(UUID scheduleId) {
        return send(scheduleId, null)
                .chain(() -> publications.remove(scheduleId))
                .replaceWithVoid();
    }

    /** {@link #publish}, without the caller waiting; a failure is logged and left to the republisher. */
    public void publishLater(ScheduleEvent event) {
        publish(event).subscribe().with(ignored -> { }, e -> LOG.warnf(
                "the timing of schedule %s (version %d) was not published: %s; the republisher will publish it",
                event.scheduleId(), event.version(), e.getMessage()));
    }

    /** {@link #tombstone}, without the caller waiting; a failure is logged and left to the republisher. */
    public void tombstoneLater(UUID scheduleId) {
        tombstone(scheduleId).subscribe().with(ignored -> { }, e -> LOG.warnf(
                "the tombstone of schedule %s was not published: %s; the republisher will publish it", scheduleId,
                e.getMessage()));
    }

    private Uni<Void> send(UUID scheduleId, byte[] value) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(Headers.EVENT_ID, UUID.randomUUID().toString().getBytes(StandardCharsets.UTF_8));
        OutgoingKafkaRecordMetadata<String> metadata = OutgoingKafkaRecordMetadata.<String>builder()
                .withHeaders(headers)
                .build();
        return Uni.createFrom().deferred(() -> emitter.sendMessage(
                Message.of(Record.of(scheduleId.toString(), value)).addMetadata(metadata)));
    }
}
