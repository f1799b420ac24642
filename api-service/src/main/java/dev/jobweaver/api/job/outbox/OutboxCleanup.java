package dev.jobweaver.api.job.outbox;

import dev.jobweaver.api.job.JobApiConfig;
import io.quarkus.runtime.ShutdownEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Deletes the outbox rows of published jobs, those of every group published within {@code outbox.delete-delay} in one
 * statement.
 *
 * <h2>Why</h2>
 * In a burst a group holds hundreds of jobs, but at a low rate each job is its own group, so deleting each group's rows
 * as soon as Kafka acknowledged them would be a statement, a commit and a WAL flush per job: the API's second
 * transaction per job. Waiting a little gathers them.
 *
 * <h2>Guarantee</h2>
 * Nothing here can lose a job: a row is only ever deleted after its event was acknowledged. A row whose delete fails,
 * or is still waiting when the process dies, stays; the sweeper publishes its event once more (at once when the same
 * instance restarts, else once the row is older than the relay's bound plus the sweep margin), and the scheduler
 * ingests idempotently. So the delay bounds how many events a crash republishes, not what is kept. At shutdown
 * whatever waits is deleted at once (bounded by {@link #SHUTDOWN_WAIT}).
 *
 * <h2>Threads and defaults</h2>
 * {@link #deleteLater} is called on the Vert.x context that received Kafka's answers for a group; the list is guarded
 * by this object's lock, held only to add or take ids. The delete runs from a Vert.x timer (an event loop), or from
 * the caller when {@code outbox.delete-batch-size} rows (default 2,000) are waiting. Default delay 250 ms; 0 deletes
 * each group's rows at once.
 */
@ApplicationScoped
class OutboxCleanup {

    private static final Logger LOG = Logger.getLogger(OutboxCleanup.class);
    static final Duration SHUTDOWN_WAIT = Duration.ofSeconds(5);

    private final OutboxStore store;
    private final Vertx vertx;
    private final long delayMillis;
    private final int batchSize;
    /** Ids acknowledged and not yet taken by a delete; guarded by {@code this}. */
    private List<UUID> waiting = new ArrayList<>();
    /** Whether a timer will take {@link #waiting}; guarded by {@code this}. */
    private boolean timerSet;

    @Inject
    OutboxCleanup(OutboxStore store, Vertx vertx, JobApiConfig config) {
        this(store, vertx, config.outbox().deleteDelay(), config.outbox().deleteBatchSize());
    }

    OutboxCleanup(OutboxStore store, Vertx vertx, Duration delay, int batchSize) {
        this.store = store;
        this.vertx = vertx;
        this.delayMillis = delay.toMillis();
        this.batchSize = Math.max(1, batchSize);
    }

    /** Deletes the rows of these acknowledged jobs within the delay. Never fails; a failed delete is logged. */
    void deleteLater(List<UUID> acknowledged) {
        if (acknowledged.isEmpty()) {
            return;
        }
        if (delayMillis <= 0) {
            delete(acknowledged);
            return;
        }
        List<UUID> full = null;
        synchronized (this) {
            waiting.addAll(acknowledged);
            if (waiting.size() >= batchSize) {
                full = take();
            } else if (!timerSet) {
                timerSet = true;
                vertx.setTimer(delayMillis, id -> deleteWaiting());
            }
        }
        if (full != null) {
            delete(full);
        }
    }

    /** Deletes every row waiting now; completes when the statement has (with 0 if nothing waited or it failed). */
    Uni<Integer> deleteWaiting() {
        List<UUID> ids;
        synchronized (this) {
            timerSet = false;
            ids = take();
        }
        return delete(ids);
    }

    /** How many acknowledged rows wait for their delete. */
    synchronized int waiting() {
        return waiting.size();
    }

    void stopping(@Observes ShutdownEvent event) {
        try {
            deleteWaiting().await().atMost(SHUTDOWN_WAIT);
        } catch (RuntimeException e) {
            LOG.warnf("outbox rows not deleted at shutdown (%s); the sweeper will publish their events again, which the"
                    + " scheduler ignores", e.getMessage());
        }
    }

    /** Takes the waiting ids; the caller holds the lock. */
    private List<UUID> take() {
        List<UUID> taken = waiting;
        waiting = new ArrayList<>();
        return taken;
    }

    private Uni<Integer> delete(List<UUID> ids) {
        if (ids.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        Uni<Integer> deleted = store.delete(ids)
                .onFailure().invoke(e -> LOG.warnf("%d outbox row(s) not removed (%s); the sweeper will publish those"
                        + " events again, which the scheduler ignores: %s", ids.size(), e.getMessage(), ids))
                .onFailure().recoverWithItem(0)
                .memoize().indefinitely();
        deleted.subscribe().with(ignored -> { });
        return deleted;
    }
}
