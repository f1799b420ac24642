package dev.jobweaver.scheduler.worker;

import dev.jobweaver.common.worker.LiveWorkers;
import dev.jobweaver.common.worker.WorkerStore;
import dev.jobweaver.scheduler.job.JobsCommitted;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import java.time.Instant;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * The workers this replica knows to be live, read from the {@code workers} table every
 * {@code jobweaver.scheduler.workers.refresh-interval}: the dispatcher parks a claimed job that none of them serves
 * ({@link ParkedJobs}), and each read releases the parked jobs that a live worker now serves.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>Until its first read this replica knows no workers and parks nothing ({@link LiveWorkers#UNKNOWN}): a
 *       scheduler that starts before the workers' heartbeats are read dispatches as it always did.</li>
 *   <li>A worker that starts is seen by every replica within a refresh of its first heartbeat's storing, and the jobs
 *       that waited for it are due at that refresh.</li>
 *   <li>A read that fails keeps the last one; a worker is counted live until its heartbeat says otherwise, so a
 *       database hiccup parks nothing.</li>
 * </ul>
 *
 * <h2>Threads</h2>
 * The Quarkus scheduler calls {@link #refresh} (never two at once); the snapshot is a volatile reference that the
 * dispatcher reads on its event loop.
 */
@ApplicationScoped
public class WorkerPool {

    private static final Logger LOG = Logger.getLogger(WorkerPool.class);

    private final WorkerStore store;
    private final ParkedJobs parked;
    private final Event<JobsCommitted> committed;
    private volatile LiveWorkers live = LiveWorkers.UNKNOWN;

    public WorkerPool(Pool pool, ParkedJobs parked, Event<JobsCommitted> committed) {
        this.store = new WorkerStore(pool);
        this.parked = parked;
        this.committed = committed;
    }

    /** The live workers as last read; {@link LiveWorkers#UNKNOWN} before the first read. */
    public LiveWorkers live() {
        return live;
    }

    /** Reads the live workers and releases the parked jobs they serve; on the timer, and when a test needs it now. */
    @Scheduled(every = "${jobweaver.scheduler.workers.refresh-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP, skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    public Uni<Void> refresh() {
        return store.live(Instant.now())
                .map(LiveWorkers::of)
                .invoke(read -> live = read)
                .chain(parked::release)
                .invoke(released -> {
                    if (released > 0) {
                        LOG.infof("%d job(s) that waited for a worker are due: a worker for them lives", released);
                        // jobs became due: the dispatcher runs a round, as after any commit that makes jobs due
                        committed.fire(new JobsCommitted(List.of(), true, null, null, 0));
                    }
                })
                .onFailure().invoke(e -> LOG.debugf("could not read the live workers: %s", e.getMessage()))
                .onFailure().recoverWithNull()
                .replaceWithVoid();
    }
}
