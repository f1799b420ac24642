package dev.jobweaver.common.batch;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Group commit ("natural batching"): concurrent calls that arrive while earlier ones are being written are written
 * together, as one batch handed to one {@code flush} (one statement, one round trip), with no timer.
 *
 * <p><b>Guarantee.</b>
 * <ul>
 *   <li>No added latency: a call that finds one of the {@code maxBatchesInFlight} slots free goes out at once (alone,
 *       at rest). A call that finds every slot busy waits, and goes out with everything that waited (at most
 *       {@code maxBatchSize} calls, oldest first) as soon as a slot is free. A slot is never left free while calls
 *       wait. Under load batches grow by themselves: the longer a write takes, the more calls its successor holds.</li>
 *   <li>Every call is in exactly one batch, and its result completes exactly once: with the answer {@code flush} gave
 *       for it (the i-th item of a batch gets the i-th result), or exceptionally when the batch failed. A batch fails
 *       when {@code flush} throws (anything, an {@code Error} included), returns no stage, its stage fails (the
 *       reason itself is given, not a {@link CompletionException} around it), or it answers a number of results
 *       other than the batch's ({@link IllegalStateException}). A failed batch fails only its own calls and gives its
 *       slot back; nothing is retried here: a caller whose call failed submits again if it wants to.</li>
 * </ul>
 *
 * <p><b>Invariants.</b> At most {@code maxBatchesInFlight} batches are in flight (handed to {@code flush}, their stage
 * not complete yet), each of 1 to {@code maxBatchSize} calls. Batches are formed in the order calls were queued, and
 * a batch keeps that order; batches in flight at once may finish in any order. The queue of waiting calls has no bound
 * of its own: the callers' concurrency bounds it.
 *
 * <p><b>Threads.</b> {@link #submit} never blocks beyond a short lock and never waits for a write. {@code flush} is
 * called on the thread of the {@code submit} that found a slot free, or on the thread that completed an earlier batch's
 * stage (which freed the slot), so up to {@code maxBatchesInFlight} calls of it may run at once on different threads:
 * it must be thread-safe and should only start the write and return its stage, not wait for it. It receives an
 * unmodifiable list. A batch's results are completed on the thread that completed its stage (on the thread that
 * called {@code flush} if the stage was complete when {@code flush} returned, or {@code flush} threw), and only after
 * the next waiting batch was handed to {@code flush}, so the next write never waits for this batch's callers. Callers'
 * non-async continuations run on that thread; a caller that needs its own thread or context moves there itself. A
 * stage that is complete when {@code flush} returns is finished by the loop that called {@code flush}, so the stack
 * stays flat however many batches wait.
 *
 * <p><b>Defaults.</b> None here: each user passes both bounds from its configuration (the worker's
 * {@code jobweaver.worker.run.attempt-batch-size}, 256, and {@code attempt-batches-in-flight}, 1; the API's
 * {@code jobweaver.api.publish.max-batch-size}, 256, and {@code batches-in-flight}, 1; the scheduler's ingestion
 * rounds, {@code PollRounds}, every waiting poll and 1).
 *
 * @param <I> what a call writes
 * @param <O> what a call gets back; {@code flush} answers one per item, in the items' order
 */
public final class GroupCommit<I, O> {

    private final int maxBatchSize;
    private final int maxBatchesInFlight;
    private final Function<List<I>, CompletionStage<List<O>>> flush;
    /** Guards itself and {@link #inFlight}; never held while calling {@code flush} or completing a result. */
    private final Deque<Call<I, O>> queue = new ArrayDeque<>();
    private int inFlight;

    private record Call<I, O>(I item, CompletableFuture<O> result) {
    }

    /**
     * @param maxBatchSize most calls per batch, at least 1
     * @param maxBatchesInFlight most batches written at once, at least 1
     * @param flush writes one batch and answers one result per item, in the items' order
     */
    public GroupCommit(int maxBatchSize, int maxBatchesInFlight, Function<List<I>, CompletionStage<List<O>>> flush) {
        if (maxBatchSize < 1) {
            throw new IllegalArgumentException("maxBatchSize must be at least 1, got " + maxBatchSize);
        }
        if (maxBatchesInFlight < 1) {
            throw new IllegalArgumentException("maxBatchesInFlight must be at least 1, got " + maxBatchesInFlight);
        }
        this.maxBatchSize = maxBatchSize;
        this.maxBatchesInFlight = maxBatchesInFlight;
        this.flush = Objects.requireNonNull(flush, "flush");
    }

    /**
     * Writes {@code item} with whatever else is waiting: at once if a slot is free, else with the next batch. The
     * result completes once its batch was written (see the class documentation for the thread).
     */
    public CompletableFuture<O> submit(I item) {
        CompletableFuture<O> result = new CompletableFuture<>();
        synchronized (queue) {
            queue.add(new Call<>(item, result));
        }
        drain();
        return result;
    }

    /** Batches being written now (a gauge, not a synchronisation point). */
    public int batchesInFlight() {
        synchronized (queue) {
            return inFlight;
        }
    }

    /** Calls waiting for a free slot (a gauge, not a synchronisation point). */
    public int waiting() {
        synchronized (queue) {
            return queue.size();
        }
    }

    /**
     * Hands batches to {@code flush} while a slot is free and calls wait. A batch whose stage was complete when
     * {@code flush} returned is answered here, once the next batch (if any) was handed out.
     */
    private void drain() {
        Batch writtenAtOnce = null;
        List<Call<I, O>> calls;
        while ((calls = takeBatch()) != null) {
            Batch batch = new Batch(calls);
            boolean atOnce = batch.start();
            if (writtenAtOnce != null) {
                writtenAtOnce.answer();
            }
            writtenAtOnce = atOnce ? batch : null;
        }
        if (writtenAtOnce != null) {
            writtenAtOnce.answer();
        }
    }

    /** The next batch, its slot taken; null if no slot is free or nothing waits. */
    private List<Call<I, O>> takeBatch() {
        synchronized (queue) {
            if (inFlight >= maxBatchesInFlight || queue.isEmpty()) {
                return null;
            }
            List<Call<I, O>> calls = new ArrayList<>(Math.min(queue.size(), maxBatchSize));
            while (calls.size() < maxBatchSize && !queue.isEmpty()) {
                calls.add(queue.poll());
            }
            inFlight++;
            return calls;
        }
    }

    private void release() {
        synchronized (queue) {
            inFlight--;
        }
    }

    /** One batch handed to {@code flush}, and who finishes it: its stage's completion, or the loop that started it. */
    private final class Batch {

        private static final int STARTING = 0;
        private static final int STARTED = 1;
        private static final int COMPLETED_WHILE_STARTING = 2;

        private final List<Call<I, O>> calls;
        private final AtomicInteger state = new AtomicInteger(STARTING);
        // Written before the state becomes COMPLETED_WHILE_STARTING, read after (the CAS orders them).
        private List<O> results;
        private Throwable failure;

        Batch(List<Call<I, O>> calls) {
            this.calls = calls;
        }

        /**
         * Hands the batch to {@code flush}. Returns true if its stage was complete already: its slot is free again and
         * the caller must {@link #answer()} it (drain() does, after handing out the next batch), so that a chain of
         * such batches costs no stack frame per batch.
         */
        boolean start() {
            stage().whenComplete((written, failed) -> {
                if (state.compareAndSet(STARTING, COMPLETED_WHILE_STARTING)) {
                    results = written;
                    failure = failed;
                    return;
                }
                release();
                drain(); // the next batch goes out before this one's callers resume
                answer(written, failed);
            });
            if (state.compareAndSet(STARTING, STARTED)) {
                return false;
            }
            release();
            return true;
        }

        /** Answers a batch whose stage was complete when {@code flush} returned. */
        void answer() {
            answer(results, failure);
        }

        private CompletionStage<List<O>> stage() {
            List<I> items = new ArrayList<>(calls.size());
            for (Call<I, O> call : calls) {
                items.add(call.item());
            }
            try {
                CompletionStage<List<O>> written = flush.apply(Collections.unmodifiableList(items));
                return written != null ? written : CompletableFuture.failedFuture(
                        new IllegalStateException("flush returned no stage for a batch of " + calls.size()));
            } catch (Throwable e) {
                // Anything, an Error included: a slot that is never given back would stall every later call.
                return CompletableFuture.failedFuture(e);
            }
        }

        private void answer(List<O> written, Throwable failed) {
            Throwable reason = failed instanceof CompletionException wrapped && wrapped.getCause() != null
                    ? wrapped.getCause() : failed;
            if (reason == null && (written == null || written.size() != calls.size())) {
                reason = new IllegalStateException("a batch of " + calls.size() + " got "
                        + (written == null ? "no" : written.size()) + " results");
            }
            for (int i = 0; i < calls.size(); i++) {
                if (reason != null) {
                    calls.get(i).result().completeExceptionally(reason);
                } else {
                    calls.get(i).result().complete(written.get(i));
                }
            }
        }
    }
}
