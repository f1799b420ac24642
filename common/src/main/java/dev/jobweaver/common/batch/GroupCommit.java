package dev.jobweaver.common.batch;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * Group commit: concurrent calls that arrive while earlier ones are being written are written together, in one
 * statement and one round trip.
 *
 * <p>No timer and no added latency: a call finds a free batch slot (at most {@code maxBatchesInFlight} batches are
 * written at once) and goes out alone at once, or it waits for a slot, and everything that waited goes out with it (at
 * most {@code maxBatchSize} items). Under load batches grow by themselves; at rest every call is its own batch. A
 * failed batch fails each of its calls, which retry on their own.
 *
 * @param <I> what a call writes
 * @param <O> what a call gets back; {@code flush} answers one per item, in the items' order
 */
public final class GroupCommit<I, O> {

    private final int maxBatchSize;
    private final int maxBatchesInFlight;
    private final Function<List<I>, CompletionStage<List<O>>> flush;
    private final Deque<Pending<I, O>> queue = new ArrayDeque<>();
    private int inFlight;

    private record Pending<I, O>(I item, CompletableFuture<O> result) {
    }

    public GroupCommit(int maxBatchSize, int maxBatchesInFlight, Function<List<I>, CompletionStage<List<O>>> flush) {
        if (maxBatchSize < 1 || maxBatchesInFlight < 1) {
            throw new IllegalArgumentException("batch size and batches in flight must be at least 1");
        }
        this.maxBatchSize = maxBatchSize;
        this.maxBatchesInFlight = maxBatchesInFlight;
        this.flush = flush;
    }

    /** Writes {@code item} with whatever else is waiting; the result completes when its batch was written. */
    public CompletableFuture<O> submit(I item) {
        CompletableFuture<O> result = new CompletableFuture<>();
        synchronized (queue) {
            queue.add(new Pending<>(item, result));
        }
        drain();
        return result;
    }

    /** Batches being written now. */
    public int batchesInFlight() {
        synchronized (queue) {
            return inFlight;
        }
    }

    private void drain() {
        List<Pending<I, O>> batch;
        synchronized (queue) {
            if (inFlight >= maxBatchesInFlight || queue.isEmpty()) {
                return;
            }
            batch = new ArrayList<>(Math.min(queue.size(), maxBatchSize));
            while (batch.size() < maxBatchSize && !queue.isEmpty()) {
                batch.add(queue.poll());
            }
            inFlight++;
        }
        CompletionStage<List<O>> written;
        try {
            written = flush.apply(batch.stream().map(Pending::item).toList());
        } catch (RuntimeException e) {
            written = CompletableFuture.failedFuture(e);
        }
        written.whenComplete((results, failure) -> {
            synchronized (queue) {
                inFlight--;
            }
            // The next batch goes out before this one's callers resume, so the queue never waits on them.
            drain();
            if (failure == null && (results == null || results.size() != batch.size())) {
                failure = new IllegalStateException("a batch of " + batch.size() + " got "
                        + (results == null ? "no" : results.size()) + " results");
            }
            for (int i = 0; i < batch.size(); i++) {
                if (failure != null) {
                    batch.get(i).result().completeExceptionally(failure);
                } else {
                    batch.get(i).result().complete(results.get(i));
                }
            }
        });
        drain(); // another slot may be free and more may be waiting
    }
}
