package dev.jobweaver.api.outbox;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.messaging.Headers;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.Record;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * Publishes a row that is its own outbox, and republishes the rows Kafka did not acknowledge: the mechanics the
 * publishers and republishers of schedules, tenant limits and workflow runs share. Each feature keeps its topic, key,
 * event and the SQL of its table in its own package; its publisher is a {@link RowPublisher}, its republisher a
 * {@link RowRepublisher}, whose rounds {@link Republisher} runs.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>At least once: a change is committed to its row, then sent; only once Kafka acknowledged it ({@code acks=all})
 *       does the feature record it in the row ({@code published_version}), with a guarded update that never moves a
 *       row backwards. What is not acknowledged (a crash or an outage between the commit and the acknowledgement)
 *       stays unpublished in the row, and the feature's republisher publishes it again.</li>
 *   <li>A record sent twice, by the sink's retry, by the republisher while a first send slower than one round was in
 *       flight ({@link RowRepublisher} leaves a younger change to its own send), or by the republishers of two
 *       instances (every API instance runs them, without coordination), is harmless: its readers keep the highest
 *       version per key.</li>
 *   <li>No row is locked while Kafka answers, so a change never waits for a publish.</li>
 * </ul>
 *
 * <h2>Threads</h2>
 * {@link #publish} and {@link #later} never block and may be called on an event loop; a change's bookkeeping (on the
 * reactive SQL client) runs from Kafka's acknowledgement callback.
 * A {@link RowRepublisher}'s rounds run on a Vert.x event loop, never concurrently with themselves, and publish one
 * row after the other.
 *
 * <h2>Defaults</h2>
 * Through each feature's configuration: a republisher round every 5 s ({@code republish-interval}, 1 s in tests) of at
 * most 100 rows ({@code republish-batch-size}), a full round followed by the next at once; where the topic is
 * compacted (schedules, tenant limits), every row is published again after 3 days ({@code refresh-after}), before the
 * topic's 7 days' retention drops its last record.
 */
@ApplicationScoped
public class RowOutbox {

    @Inject ObjectMapper mapper;

    /**
     * Sends {@code event} on {@code emitter}'s channel as JSON keyed by {@code key} (a tombstone when {@code event} is
     * null), with a new event id and, when not null, {@code traceparent} as headers; completes once Kafka acknowledged
     * it, or fails.
     */
    private Uni<Void> send(MutinyEmitter<Record<String, byte[]>> emitter, String key, Object event,
                           String traceparent) {
        byte[] value;
        try {
            value = event == null ? null : mapper.writeValueAsBytes(event);
        } catch (JsonProcessingException e) {
            return Uni.createFrom().failure(new IllegalStateException(
                    "could not serialise a " + event.getClass().getSimpleName(), e));
        }
        RecordHeaders headers = new RecordHeaders();
        headers.add(Headers.EVENT_ID, UUID.randomUUID().toString().getBytes(StandardCharsets.UTF_8));
        if (traceparent != null) {
            headers.add(Headers.TRACEPARENT, traceparent.getBytes(StandardCharsets.UTF_8));
        }
        OutgoingKafkaRecordMetadata<String> metadata = OutgoingKafkaRecordMetadata.<String>builder()
                .withHeaders(headers)
                .build();
        return Uni.createFrom().deferred(() -> emitter.sendMessage(
                Message.of(Record.of(key, value)).addMetadata(metadata)));
    }

    /** One record of a row's change: its key, its event (null for a tombstone), and the trace it continues or null. */
    public record Outgoing(String key, Object event, String traceparent) {
    }

    /**
     * Publishes a row's change: sends {@code records} on {@code emitter}'s channel, one after the other, and once Kafka
     * acknowledged them all runs {@code recorded} (the feature's bookkeeping that the row is published); completes
     * once that is done, or fails, and then the row stays unpublished for the republisher. A change whose event breaks
     * a rule ({@code problem} not null) fails at once, as {@code what} (say, "the limit of tenant t") "breaks a rule".
     */
    Uni<Void> publish(MutinyEmitter<Record<String, byte[]>> emitter, String what, String problem,
                      List<Outgoing> records, Supplier<Uni<?>> recorded) {
        if (problem != null) {
            // its reader would quarantine it: a bug here, not the client's doing
            return Uni.createFrom().failure(new IllegalStateException(what + " breaks a rule: " + problem));
        }
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (Outgoing record : records) {
            chain = chain.chain(() -> send(emitter, record.key(), record.event(), record.traceparent()));
        }
        return chain.chain(recorded).replaceWithVoid();
    }

    /**
     * Runs {@code publish} without the caller waiting; a failure is logged as {@code what} (say, "the limit of tenant
     * t (version 3)") in {@code log}, the publisher's, and left to the republisher, which finds the row still
     * unpublished.
     */
    static void later(Logger log, Uni<Void> publish, Supplier<String> what) {
        publish.subscribe().with(ignored -> { }, e -> log.warnf(
                "%s: not published (%s); the republisher will publish it", what.get(), e.getMessage()));
    }
}
