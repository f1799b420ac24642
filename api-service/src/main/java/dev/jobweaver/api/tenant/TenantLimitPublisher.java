package dev.jobweaver.api.tenant;

import dev.jobweaver.api.outbox.RowOutbox;
import dev.jobweaver.api.outbox.RowPublisher;
import dev.jobweaver.common.event.EventRules;
import dev.jobweaver.common.event.TenantLimitEvent;
import dev.jobweaver.common.messaging.Channels;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.Record;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import org.eclipse.microprofile.reactive.messaging.Channel;

/**
 * Publishes a tenant's limit ({@link TenantLimitEvent}) to {@code tenant-limits}, keyed by the tenant, a removed limit
 * as an event without {@code maxRunning}; once Kafka acknowledged, records it in the row, which is the outbox
 * ({@link RowOutbox} states the guarantees and threads).
 *
 * <p>An emitter on {@code tenant-limits-out}, as for schedules: nothing waits for the answer (the request was answered
 * on its commit), and a record sent twice is harmless: the scheduler keeps the highest version per tenant. What is not
 * acknowledged stays {@code published_version < version} in the row, and {@link TenantLimitRepublisher} publishes it
 * again.
 */
@ApplicationScoped
public class TenantLimitPublisher extends RowPublisher<TenantLimitEvent> {

    @Inject TenantLimitStatements statements;

    @Inject
    TenantLimitPublisher(RowOutbox outbox,
                         @Channel(Channels.TENANT_LIMITS_OUT) MutinyEmitter<Record<String, byte[]>> emitter) {
        super(outbox, emitter, TenantLimitPublisher.class);
    }

    @Override
    protected Change change(TenantLimitEvent event) {
        return new Change("the limit of tenant " + event.tenant(), "version " + event.version(),
                EventRules.problem(event), List.of(new RowOutbox.Outgoing(event.tenant(), event, null)),
                () -> statements.published(event.tenant(), event.version()));
    }
}
