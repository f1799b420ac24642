package dev.jobweaver.scheduler.limit;

import dev.jobweaver.common.event.EventRules;
import dev.jobweaver.common.event.TenantLimitEvent;
import dev.jobweaver.common.messaging.Channels;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.Quarantine;
import dev.jobweaver.common.quarantine.QuarantineReason;
import dev.jobweaver.common.quarantine.RecordOrigin;
import dev.jobweaver.scheduler.dispatch.Dispatcher;
import dev.jobweaver.scheduler.intake.Consumed;
import dev.jobweaver.scheduler.intake.IncomingRecords;
import dev.jobweaver.scheduler.intake.QuarantiningRound;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.ArrayList;
import java.util.List;
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
 *       found by splitting the poll ({@link QuarantiningRound}) and quarantined alone.</li>
 *   <li>A change wakes the dispatcher: a raised or removed limit lets waiting jobs start at once.</li>
 * </ul>
 *
 * <h2>Threads</h2>
 * The channel calls {@link #consume} on its event loop, one poll at a time; nothing blocks.
 */
@ApplicationScoped
public class TenantLimitConsumer {

    private final IncomingRecords records;
    private final Quarantine quarantine;
    private final QuarantiningRound<TenantLimitEvent> round;

    public TenantLimitConsumer(IncomingRecords records, TenantLimitRepository repository, Dispatcher dispatcher,
                               Quarantine quarantine) {
        this.records = records;
        this.quarantine = quarantine;
        this.round = new QuarantiningRound<>(Channels.TENANT_LIMITS_IN,
                events -> repository.applyAll(events).invoke(changed -> {
                    if (changed > 0) {
                        dispatcher.wake();
                    }
                }).replaceWithVoid(), quarantine);
    }

    /** The quarantine counters of tenant limits exist (at zero) from the start, not from the first bad record. */
    void registerCounters(@Observes StartupEvent start) {
        quarantine.register(Topics.TENANT_LIMITS);
    }

    @Incoming(Channels.TENANT_LIMITS_IN)
    public Uni<Void> consume(KafkaRecordBatch<String, byte[]> batch) {
        List<Consumed<TenantLimitEvent>> consumed = new ArrayList<>(batch.getRecords().size());
        for (KafkaRecord<String, byte[]> record : batch.getRecords()) {
            consumed.add(read(record));
        }
        return round.apply(consumed).chain(() -> IncomingRecords.ack(batch));
    }

    private Consumed<TenantLimitEvent> read(KafkaRecord<String, byte[]> record) {
        if (record.getPayload() == null) {
            return new Consumed.Refused<>(RecordOrigin.of(record, null), QuarantineReason.INVALID,
                    "a tombstone; a removed limit is an event without maxRunning");
        }
        return records.read(record, TenantLimitEvent.class, EventRules::problem,
                (key, event) -> EventRules.tenantLimitKeyProblem(key, event.tenant()));
    }
}
