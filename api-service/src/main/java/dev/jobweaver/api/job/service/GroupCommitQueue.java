package dev.jobweaver.api.job.service;

import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * Natural batching: items offered while a unit is in flight are drained together, at most {@code maxBatch} at a
 * time, as the next unit once the previous one finished.
 *
 * <p>There is never an artificial wait: an item offered to an idle queue starts a unit of one at once; the batch only
 * grows with the load, because concurrent callers accumulate while the stage works. At most one unit is in the stage
 * at any time, so its work (one database statement for all rows) is never contended by its own siblings. The stage
 * must not fail; if it does anyway, {@code onStageFailure} receives the unit so its items can be answered, and the
 * queue carries on with the next unit.
 *
 * @param <T> an item; the stage is responsible for answering it
 */
public final class GroupCommitQueue<T> {

    private final ConcurrentLinkedQueue<T> queue = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean busy = new AtomicBoolean();
    private final int maxBatch;
    private final Function<List<T>, Uni<Void>> stage;
    private final BiConsumer<List<T>, Throwable> onStageFailure;

    /**
     * @param maxBatch most items per unit
     * @param stage the work of one unit; the next unit starts once its Uni completed
     * @param onStageFailure told when the stage failed or threw, with the unit it failed
     */
    public GroupCommitQueue(int maxBatch, Function<List<T>, Uni<Void>> stage,
                            BiConsumer<List<T>, Throwable> onStageFailure) {
        if (maxBatch < 1) {
            throw new IllegalArgumentException("maxBatch must be at least 1, got " + maxBatch);
        }
        this.maxBatch = maxBatch;
        this.stage = stage;
        this.onStageFailure = onStageFailure;
    }

    /** Queues {@code item}; it goes in the next unit (at once if no unit is in flight). */
    public void offer(T item) {
        queue.add(item);
        drainIfIdle();
    }

    /** Items waiting for a unit (a gauge, not a synchronisation point). */
    public int waiting() {
        return queue.size();
    }

    private void drainIfIdle() {
        // The loop covers an item offered between "queue looked empty" and "busy released": whoever releases busy
        // looks again, so no item is ever stranded without a unit coming for it.
        while (!queue.isEmpty() && busy.compareAndSet(false, true)) {
            List<T> unit = new ArrayList<>(Math.min(maxBatch, 64));
            T next;
            while (unit.size() < maxBatch && (next = queue.poll()) != null) {
                unit.add(next);
            }
            if (unit.isEmpty()) {
                busy.set(false);
                continue;
            }
            Uni<Void> work;
            try {
                work = stage.apply(unit);
            } catch (RuntimeException e) {
                onStageFailure.accept(unit, e);
                busy.set(false);
                continue;
            }
            work.subscribe().with(ignored -> finished(), failure -> {
                onStageFailure.accept(unit, failure);
                finished();
            });
            return; // the unit's completion drains what accumulated meanwhile
        }
    }

    private void finished() {
        busy.set(false);
        drainIfIdle();
    }
}
