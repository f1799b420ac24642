package dev.jobweaver.api.tenant.messaging;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.tenant.persistence.TenantLimitStatements;
import dev.jobweaver.common.event.EventRules;
import dev.jobweaver.common.event.TenantLimitEvent;
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
 * Publishes a tenant's limit ({@link TenantLimitEvent}) to {@code tenant-limits}, keyed by the tenant, a removed limit
 * as an event without {@code maxRunning}; once Kafka acknowledged ({@code acks=all}), records it in the row, which is
 * the outbox.
 *
 * <p>An emitter on {@code tenant-limits-out}, as for schedules: nothing waits for the answer (the request was answered
 * on its commit), and a record sent twice, by the sink's retry or by the republisher while the first send was in
 * flight, is harmless: the scheduler keeps the highest version per tenant. What is not acknowledged stays
 * {@code published_version < version} in the row, and {@link TenantLimitRepublisher} publishes it again.
 *
 * <p>Never blocks: {@link #publish} may be called on an event loop; the bookkeeping runs on the reactive SQL client
 * from Kafka's callback.
 */
@ApplicationScoped
public class TenantLimitPublisher {

    private static final Logger LOG = Logger.getLogger(TenantLimitPublisher.class);

    private final MutinyEmitter<Record<String, byte[]>> emitter;
    private final TenantLimitStatements statements;
    private final ObjectMapper mapper;

    public TenantLimitPublisher(@Channel(Channels.TENANT_LIMITS_OUT) MutinyEmitter<Record<String, byte[]>> emitter,
                                TenantLimitStatements statements, ObjectMapper mapper) {
        this.emitter = emitter;
        this.statements = statements;
        this.mapper = mapper;
    }

    /**
     * Publishes {@code event}; completes once Kafka acknowledged it and its version is recorded as published, or fails
     * (the row stays unpublished for the republisher).
     */
    public Uni<Void> publish(TenantLimitEvent event) {
        String problem = EventRules.problem(event);
        if (problem != null) {
            // the scheduler would quarantine it: a bug here, not the client's doing
            return Uni.createFrom().failure(new IllegalStateException("the limit of tenant " + event.tenant()
                    + " breaks a rule: " + problem));
        }
        byte[] value;
        try {
            value = mapper.writeValueAsBytes(event);
        } catch (JsonProcessingException e) {
            return Uni.createFrom().failure(new IllegalStateException("could not serialise a TenantLimitEvent", e));
        }
        RecordHeaders headers = new RecordHeaders();
        headers.add(Headers.EVENT_ID, UUID.randomUUID().toString().getBytes(StandardCharsets.UTF_8));
        OutgoingKafkaRecordMetadata<String> metadata = OutgoingKafkaRecordMetadata.<String>builder()
                .withHeaders(headers)
                .build();
        return Uni.createFrom().deferred(() -> emitter.sendMessage(
                        Message.of(Record.of(event.tenant(), value)).addMetadata(metadata)))
                .chain(() -> statements.published(event.tenant(), event.version()))
                .replaceWithVoid();
    }

    /** {@link #publish}, without the caller waiting; a failure is logged and left to the republisher. */
    public void publishLater(TenantLimitEvent event) {
        publish(event).subscribe().with(ignored -> { }, e -> LOG.warnf(
                "the limit of tenant %s (version %d) was not published: %s; the republisher will publish it",
                event.tenant(), event.version(), e.getMessage()));
    }
}
