package dev.jobweaver.common.quarantine;

import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * Applies a batch of records in one round and, when the round fails for a permanent reason, splits it in halves
 * until the bad records stand alone, so that one bad record never holds back the good ones beside it.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>Every item is either applied by a successful round or, alone in a round that failed permanently
 *       ({@link Failures#permanentReason}), handed to {@code quarantine}. The returned Uni completes only then.</li>
 *   <li>A transient failure is handled by {@code retryTransient} (typically: retry with backoff, indefinitely) and,
 *       if that gives up, fails the returned Uni: nothing is quarantined for a transient reason.</li>
 *   <li>Halves are applied one after the other, left first, so the order of the items is kept.</li>
 * </ul>
 * A round must be all or nothing (one transaction) for this to be exact; rounds that already committed are not
 * repeated unless a later transient failure makes the caller retry the whole batch, which the consumers' idempotence
 * makes harmless.
 *
 * <h2>Cost</h2>
 * A batch with one bad record takes about 2 log2(n) extra rounds; a batch without one takes exactly one.
 *
 * @param <T> one item of a round, which knows the record it came from
 */
public final class Bisection<T> {

    private final Function<List<T>, Uni<Void>> round;
    private final UnaryOperator<Uni<Void>> retryTransient;
    private final BiFunction<T, Throwable, Uni<Void>> quarantine;

    /**
     * @param round          applies items in one all-or-nothing round
     * @param retryTransient wraps a round (and a quarantine publish) with the caller's retry of transient failures; it
     *                       must let permanent failures through at once, e.g.
     *                       {@code u -> u.onFailure(Failures::isTransient).retry().withBackOff(...).indefinitely()}
     * @param quarantine     sets one item aside, with the permanent failure of its round
     */
    public Bisection(Function<List<T>, Uni<Void>> round, UnaryOperator<Uni<Void>> retryTransient,
                     BiFunction<T, Throwable, Uni<Void>> quarantine) {
        this.round = round;
        this.retryTransient = retryTransient;
        this.quarantine = quarantine;
    }

    /** Applies {@code items}, quarantining the ones that fail permanently on their own. */
    public Uni<Void> apply(List<T> items) {
        if (items.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return retryTransient.apply(Uni.createFrom().deferred(() -> round.apply(items)))
                .onFailure().recoverWithUni(failure -> {
                    if (Failures.isTransient(failure)) {
                        return Uni.createFrom().failure(failure);
                    }
                    if (items.size() == 1) {
                        return retryTransient.apply(Uni.createFrom().deferred(
                                () -> quarantine.apply(items.get(0), failure)));
                    }
                    int half = items.size() / 2;
                    List<T> left = List.copyOf(items.subList(0, half));
                    List<T> right = List.copyOf(items.subList(half, items.size()));
                    return apply(left).chain(() -> apply(right));
                });
    }

    /** The usual transient policy: retry with exponential backoff from {@code first} up to {@code max}, forever. */
    public static UnaryOperator<Uni<Void>> retryForever(java.time.Duration first, java.time.Duration max) {
        return retryForever(first, max, Failures::isTransient);
    }

    /** As {@link #retryForever(java.time.Duration, java.time.Duration)}, for the failures {@code retried} accepts. */
    public static UnaryOperator<Uni<Void>> retryForever(java.time.Duration first, java.time.Duration max,
                                                        java.util.function.Predicate<Throwable> retried) {
        return uni -> uni.onFailure(retried).retry().withBackOff(first, max).indefinitely();
    }
}
