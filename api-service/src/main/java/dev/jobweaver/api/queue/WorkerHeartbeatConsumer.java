package dev.jobweaver.api.queue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.event.EventRules;
import dev.jobweaver.common.event.WorkerHeartbeatEvent;
import dev.jobweaver.common.messaging.Channels;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.BatchIntake;
import dev.jobweaver.common.quarantine.Consumed;
import dev.jobweaver.common.quarantine.Quarantine;
import dev.jobweaver.common.quarantine.QuarantineReason;
import dev.jobweaver.common.worker.WorkerStore;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Keeps each worker's newest heartbeat ({@code worker-heartbeats}) in {@code workers}, for {@code GET /api/queues}.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>A poll is stored in one statement ({@link WorkerStore#apply}) and acknowledged after it; an older heartbeat
 *       than the stored one changes nothing, so a poll consumed again changes nothing more.</li>
 *   <li>The quarantine rule ({@link BatchIntake}): a record that does not parse, breaks a rule ({@link EventRules}),
 *       is not keyed by its workerId, or is a tombstone (no worker writes one) is set aside in
 *       {@code jobweaver-quarantine}; one the database refuses for good is split out and set aside alone.</li>
 * </ul>
 * Polls are taken one at a time (the method's {@code Uni}), on the consumer's Vert.x event loop.
 */
@ApplicationScoped
@Startup // its quarantine counters exist, at zero, from the start, not from the first bad record
public class WorkerHeartbeatConsumer {

    private final BatchIntake<WorkerHeartbeatEvent> intake;

    public WorkerHeartbeatConsumer(Pool pool, Quarantine quarantine, ObjectMapper mapper) {
        WorkerStore workers = new WorkerStore(pool);
        BatchIntake.Reader<WorkerHeartbeatEvent> events = BatchIntake.events(mapper, WorkerHeartbeatEvent.class,
                EventRules::problem, (key, event) -> EventRules.workerKeyProblem(key, event.workerId()));
        this.intake = new BatchIntake<>(Channels.WORKER_HEARTBEATS_IN, quarantine,
                (record, origin) -> origin.value() == null ? new Consumed.Refused<>(origin, QuarantineReason.INVALID,
                        "a tombstone; a worker that leaves says so in a heartbeat") : events.read(record, origin),
                heartbeats -> workers.apply(heartbeats).replaceWithVoid());
        quarantine.register(Topics.WORKER_HEARTBEATS);
    }

    @Incoming(Channels.WORKER_HEARTBEATS_IN)
    public Uni<Void> consume(KafkaRecordBatch<String, byte[]> batch) {
        return intake.consume(batch);
    }
}
