package dev.jobweaver.api.queue;

import dev.jobweaver.common.worker.LiveWorkers;
import dev.jobweaver.common.worker.WorkerStore;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import org.jboss.logging.Logger;

/**
 * The workers this API instance knows to be live, read from its {@code workers} table every
 * {@code jobweaver.api.workers.refresh-interval}: a pending job of a (queue, type) none of them serves shows what it
 * waits for ({@code waitingFor}), without a query per request.
 *
 * <p>Until its first read it knows no workers and says no job waits ({@link LiveWorkers#UNKNOWN}). A read that fails
 * keeps the last one. The Quarkus scheduler calls {@link #refresh}, never two at once; requests read the volatile
 * snapshot on their event loops.
 */
@ApplicationScoped
public class LiveWorkerView {

    private static final Logger LOG = Logger.getLogger(LiveWorkerView.class);

    private final WorkerStore store;
    private volatile LiveWorkers live = LiveWorkers.UNKNOWN;

    public LiveWorkerView(Pool pool) {
        this.store = new WorkerStore(pool);
    }

    /** The live workers as last read. */
    public LiveWorkers live() {
        return live;
    }

    /** Reads the live workers; on the timer, and when a test needs it now. */
    @Scheduled(every = "${jobweaver.api.workers.refresh-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP, skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    public Uni<Void> refresh() {
        return store.live(Instant.now())
                .invoke(read -> live = LiveWorkers.of(read))
                .onFailure().invoke(e -> LOG.debugf("could not read the live workers: %s", e.getMessage()))
                .onFailure().recoverWithNull()
                .replaceWithVoid();
    }
}
