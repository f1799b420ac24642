package dev.jobweaver.scheduler.worker;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.event.WorkerHeartbeatEvent;
import dev.jobweaver.common.messaging.Channels;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.BatchIntake;
import dev.jobweaver.common.quarantine.Quarantine;
import dev.jobweaver.common.worker.WorkerHeartbeats;
import dev.jobweaver.common.worker.WorkerStore;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Keeps each worker's newest heartbeat ({@code worker-heartbeats}) in the scheduler's {@code workers} table, where
 * every replica reads which workers live ({@link WorkerPool}); this replica reads them again at once when a poll changed
 * a worker, so a worker that starts gets the jobs that waited for it without waiting for the next refresh.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>A poll is stored in one statement ({@link WorkerStore#apply}) and acknowledged after it committed; an older
 *       heartbeat than the stored one changes nothing, so a poll consumed again changes nothing more.</li>
 *   <li>The quarantine rule, as {@link WorkerHeartbeats#intake} applies it to every reader of heartbeats.</li>
 * </ul>
 *
 * <h2>Threads</h2>
 * The channel calls {@link #consume} on its event loop, one poll at a time; nothing blocks.
 */
@ApplicationScoped
public class WorkerHeartbeatConsumer {

    private final Quarantine quarantine;
    private final BatchIntake<WorkerHeartbeatEvent> intake;

    public WorkerHeartbeatConsumer(Pool pool, Quarantine quarantine, ObjectMapper mapper, WorkerPool live) {
        this.quarantine = quarantine;
        WorkerStore workers = new WorkerStore(pool);
        this.intake = WorkerHeartbeats.intake(quarantine, mapper,
                // a worker that came (or left) counts at once here, not a refresh later: its waiting jobs are due now
                heartbeats -> workers.apply(heartbeats).chain(changed -> changed > 0 ? live.refresh()
                        : Uni.createFrom().voidItem()));
    }

    /** The quarantine counters of heartbeats exist (at zero) from the start, not from the first bad record. */
    void registerCounters(@Observes StartupEvent start) {
        quarantine.register(Topics.WORKER_HEARTBEATS);
    }

    @Incoming(Channels.WORKER_HEARTBEATS_IN)
    public Uni<Void> consume(KafkaRecordBatch<String, byte[]> batch) {
        return intake.consume(batch);
    }
}
