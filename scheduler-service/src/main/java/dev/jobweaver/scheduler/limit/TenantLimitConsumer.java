package dev.jobweaver.scheduler.limit;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.event.EventRules;
import dev.jobweaver.common.event.TenantLimitEvent;
import dev.jobweaver.common.messaging.Channels;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.BatchIntake;
import dev.jobweaver.common.quarantine.Consumed;
import dev.jobweaver.common.quarantine.Quarantine;
import dev.jobweaver.common.quarantine.QuarantineReason;
import dev.jobweaver.scheduler.dispatch.Dispatcher;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Consumes {@code tenant-limits} (each tenant's concurrency limit, compacted, keyed by tenant), one poll at a time: a
 * poll is stored in one statement, by version ({@link TenantLimitRepository#applyAll}), and acknowledged after it
 * committed. The dispatcher's claims read the stored limits.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>A record older than the stored version of its tenant changes nothing; a removed limit is a record without
 *       {@code maxRunning}, stored so that its version still orders the records after it.</li>
 *   <li>A record that is no usable {@link TenantLimitEvent} ({@link EventRules}, keyed by its tenant), or a tombstone
 *       (the API never writes one), is quarantined before any of it reaches SQL; one the database refuses for good is
 *       found by splitting the poll ({@link BatchIntake}) and quarantined alone.</li>
 *   <li>A change wakes the dispatcher: a raised or removed limit lets waiting jobs start at once.</li>
 * </ul>
 *
 * <h2>Threads</h2>
 * The channel calls {@link #consume} on its event loop, one poll at a time; nothing blocks.
 */
@ApplicationScoped
public class TenantLimitConsumer {

    private final Quarantine quarantine;
    private final BatchIntake<TenantLimitEvent> intake;

    public TenantLimitConsumer(TenantLimitRepository repository, Dispatcher dispatcher, Quarantine quarantine,
                               ObjectMapper mapper) {
        this.quarantine = quarantine;
        BatchIntake.Reader<TenantLimitEvent> events = BatchIntake.events(mapper, TenantLimitEvent.class,
                EventRules::problem, (key, event) -> EventRules.tenantLimitKeyProblem(key, event.tenant()),
                (record, event) -> event);
        this.intake = new BatchIntake<>(Channels.TENANT_LIMITS_IN, quarantine,
                (record, origin) -> origin.value() == null ? new Consumed.Refused<>(origin, QuarantineReason.INVALID,
                        "a tombstone; a removed limit is an event without maxRunning") : events.read(record, origin),
                limits -> repository.applyAll(limits).invoke(changed -> {
                    if (changed > 0) {
                        dispatcher.wake();
                    }
                }).replaceWithVoid());
    }

    /** The quarantine counters of tenant limits exist (at zero) from the start, not from the first bad record. */
    void registerCounters(@Observes StartupEvent start) {
        quarantine.register(Topics.TENANT_LIMITS);
    }

    @Incoming(Channels.TENANT_LIMITS_IN)
    public Uni<Void> consume(KafkaRecordBatch<String, byte[]> batch) {
        return intake.consume(batch);
    }
}
