package dev.jobweaver.common.quarantine;

import dev.jobweaver.common.batch.GroupCommit;
import dev.jobweaver.common.reactive.VertxContexts;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * Applies a batch channel's polls in rounds, one round at a time, each round taking every poll that arrived while the
 * previous one ran (group commit), instead of one round per poll.
 *
 * <h2>Why</h2>
 * In batch mode the connector polls ahead while a round runs and queues up to two polls; a poll taken right after the
 * previous one holds what arrived in between, often a single record, and it then cost a whole round (a transaction,
 * a produce request and its acknowledgement, a commit): in a 20,000-job burst a tenth of the ingestion rounds
 * stored one job, and the jobs behind them waited.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>Polls are applied in the order they were offered; rounds never overlap.</li>
 *   <li>A poll is acknowledged only after the round that applied it succeeded, so its offsets are committed only
 *       then; a round is retried (by the {@code round} function) until it succeeds or the application stops, and
 *       polls left unacknowledged at a stop are delivered again. With {@link BatchIntake#round} as the round
 *       function, a round succeeds once each of its records was applied or quarantined, so a poll is acknowledged
 *       after its quarantined copies too.</li>
 *   <li>At most {@code maxWaiting} records, and at most {@code maxWaitingBytes} of their encoded size, wait here
 *       for the next round (beyond either bound, one more poll at most). Up to those bounds the Uni returned by
 *       {@link #offer} completes at once, so the connector hands over its next poll; beyond it, only when a round
 *       takes the poll, so the connector's queue fills and it pauses the partitions.</li>
 * </ul>
 *
 * <h2>Threads</h2>
 * {@link #offer} runs on the consumer's event loop; a round starts there (when none runs) or where the previous
 * round completed. The returned Uni completes on the Vert.x context of the {@code offer} call, so the connector's
 * stream never continues on another thread.
 *
 * <h2>How</h2>
 * The rounds are the project's {@link GroupCommit} with one batch in flight and no bound on a batch's size: a poll
 * is a call, a round a batch. What is added here is the acknowledgement after a round's success and the bound in
 * records on what waits.
 *
 * @param <T> what one record becomes, the input of a round
 */
final class PollRounds<T> {

    private static final Logger LOG = Logger.getLogger(PollRounds.class);

    private final String name;
    private final Function<List<T>, Uni<Void>> round;
    private final int maxWaiting;
    private final long maxWaitingBytes;
    private final GroupCommit<Poll<T>, Void> rounds = new GroupCommit<>(Integer.MAX_VALUE, 1, this::apply);
    /** Items offered and not yet taken by a round. */
    private final AtomicInteger waitingItems = new AtomicInteger();
    /** Encoded bytes of the items offered and not yet taken by a round. */
    private final AtomicLong waitingBytes = new AtomicLong();

    /** One offered poll: its items, the batch message to acknowledge, and the signal for the connector. */
    private record Poll<T>(List<T> items, long bytes, Message<?> batch, CompletableFuture<Void> taken) {
    }

    /**
     * @param name       names the channel in log lines
     * @param round      applies the items of a round; retries failures itself (a failed round is logged and its
     *                   polls left unacknowledged)
     * @param maxWaiting items that may wait for the next round before the connector is held back
     * @param maxWaitingBytes encoded bytes that may wait for the next round before the connector is held back: the
     *                        bound that matters when records are large (a job may carry 64 KiB)
     */
    PollRounds(String name, Function<List<T>, Uni<Void>> round, int maxWaiting, long maxWaitingBytes) {
        this.name = name;
        this.round = round;
        this.maxWaiting = maxWaiting;
        this.maxWaitingBytes = maxWaitingBytes;
    }

    /** Adds a poll to the next round; the Uni completes when the connector may hand over its next poll. */
    Uni<Void> offer(List<T> items, long bytes, Message<?> batch) {
        Poll<T> poll = new Poll<>(items, bytes, batch, new CompletableFuture<>());
        boolean withinItems = waitingItems.addAndGet(items.size()) <= maxWaiting;
        boolean withinBytes = waitingBytes.addAndGet(bytes) <= maxWaitingBytes;
        if (withinItems && withinBytes) {
            poll.taken().complete(null);
        }
        rounds.submit(poll);
        return VertxContexts.backToCaller(Uni.createFrom().completionStage(poll.taken()));
    }

    /** Encoded bytes waiting for the next round now (for tests). */
    long waitingBytes() {
        return waitingBytes.get();
    }

    /** Items waiting for the next round now (for tests and metrics). */
    int waiting() {
        return waitingItems.get();
    }

    /** One round: its polls are taken (the connector may go on), applied together, then acknowledged. */
    private CompletionStage<List<Void>> apply(List<Poll<T>> polls) {
        List<T> items = new ArrayList<>();
        long bytes = 0;
        for (Poll<T> poll : polls) {
            items.addAll(poll.items());
            bytes += poll.bytes();
        }
        waitingItems.addAndGet(-items.size());
        waitingBytes.addAndGet(-bytes);
        polls.forEach(poll -> poll.taken().complete(null)); // no-op for those let through already
        Uni<Void> acks = Uni.join().all(polls.stream()
                        .map(p -> Uni.createFrom().completionStage(p.batch()::ack)).toList())
                .andFailFast().replaceWithVoid();
        return Uni.createFrom().deferred(() -> round.apply(items))
                .chain(() -> acks)
                .onFailure().invoke(failure -> LOG.errorf("%s: a round of %d record(s) failed and is left"
                        + " unacknowledged: %s", name, items.size(), failure.toString()))
                .map(ignored -> Collections.<Void>nCopies(polls.size(), null))
                .subscribeAsCompletionStage();
    }
}
