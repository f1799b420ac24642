package dev.jobweaver.api.queue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.event.WorkerHeartbeatEvent;
import dev.jobweaver.common.messaging.Channels;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.BatchIntake;
import dev.jobweaver.common.quarantine.Quarantine;
import dev.jobweaver.common.worker.WorkerHeartbeats;
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
 *   <li>The quarantine rule, as {@link WorkerHeartbeats#intake} applies it to every reader of heartbeats.</li>
 * </ul>
 * Polls are taken one at a time (the method's {@code Uni}), on the consumer's Vert.x event loop.
 */
@ApplicationScoped
@Startup // its quarantine counters exist, at zero, from the start, not from the first bad record
public class WorkerHeartbeatConsumer {

    private final BatchIntake<WorkerHeartbeatEvent> intake;

    public WorkerHeartbeatConsumer(Pool pool, Quarantine quarantine, ObjectMapper mapper) {
        WorkerStore workers = new WorkerStore(pool);
        this.intake = WorkerHeartbeats.intake(quarantine, mapper,
                heartbeats -> workers.apply(heartbeats).replaceWithVoid());
        quarantine.register(Topics.WORKER_HEARTBEATS);
    }

    @Incoming(Channels.WORKER_HEARTBEATS_IN)
    public Uni<Void> consume(KafkaRecordBatch<String, byte[]> batch) {
        return intake.consume(batch);
    }
}
