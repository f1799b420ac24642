package dev.jobweaver.scheduler.intake;

import dev.jobweaver.common.quarantine.Bisection;
import dev.jobweaver.common.quarantine.Failures;
import dev.jobweaver.common.quarantine.Quarantine;
import dev.jobweaver.common.quarantine.RecordOrigin;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * Applies a round of consumed records so that no record can hold back the others: refused records are set aside in
 * {@code jobweaver-quarantine}, usable ones applied by the round's function, and a round that the database (or the
 * data) refuses for good is split until the record it cannot take stands alone and is set aside too
 * ({@link Bisection}).
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>The returned Uni completes only when every record of the round was either applied by a successful round or
 *       quarantined, with Kafka's acknowledgement of the quarantined copy: the caller acknowledges the records
 *       after that, so each one is applied, quarantined, or consumed again.</li>
 *   <li>A transient failure ({@link Failures#isTransient}: the database or Kafka unreachable) is retried with backoff
 *       (200 ms doubling up to 10 s), forever: it never quarantines or skips a record. So is a failure to publish a
 *       quarantined copy, whatever it is: a record is never acknowledged without its copy.</li>
 *   <li>Usable records are applied in their order (halves left first); a round without a bad record costs one call of
 *       the round's function, as before.</li>
 * </ul>
 *
 * <h2>Threads</h2>
 * Starts on the caller's thread; a retry after a backoff continues on Mutiny's timer threads. The round's function
 * must not block and must be all or nothing (one transaction).
 *
 * @param <T> what a usable record becomes, the input of the round's function
 */
public final class QuarantiningRound<T> {

    private static final Logger LOG = Logger.getLogger(QuarantiningRound.class);
    private static final Duration FIRST_BACKOFF = Duration.ofMillis(200);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(10);

    private final String name;
    private final Quarantine quarantine;
    private final Bisection<Consumed.Usable<T>> bisection;

    /**
     * @param name     names the channel in log lines
     * @param apply    applies usable records in one all-or-nothing round; must not retry itself
     * @param quarantine where refused records go
     */
    public QuarantiningRound(String name, Function<List<T>, Uni<Void>> apply, Quarantine quarantine) {
        this.name = name;
        this.quarantine = quarantine;
        this.bisection = new Bisection<>(
                items -> apply.apply(values(items))
                        .onFailure().invoke(failure -> logFailedRound(items.size(), failure)),
                Bisection.retryForever(FIRST_BACKOFF, MAX_BACKOFF),
                (item, failure) -> setAside(item.origin(), () -> quarantine.send(item.origin(), failure)));
    }

    /** Quarantines the refused records of {@code round}, then applies its usable ones. */
    public Uni<Void> apply(List<Consumed<T>> round) {
        List<Uni<Void>> refused = new ArrayList<>();
        List<Consumed.Usable<T>> usable = new ArrayList<>(round.size());
        for (Consumed<T> item : round) {
            switch (item) {
                case Consumed.Usable<T> u -> usable.add(u);
                case Consumed.Refused<T> r -> refused.add(
                        setAside(r.origin(), () -> quarantine.send(r.origin(), r.reason(), r.detail())));
            }
        }
        Uni<Void> setAside = refused.isEmpty() ? Uni.createFrom().voidItem()
                : Uni.join().all(refused).andCollectFailures().replaceWithVoid();
        return setAside.chain(() -> bisection.apply(usable));
    }

    /** Publishes a quarantined copy, retrying whatever fails: the record must not be acknowledged without it. */
    private Uni<Void> setAside(RecordOrigin origin, Supplier<Uni<Void>> send) {
        return Uni.createFrom().deferred(send::get)
                .onFailure().invoke(failure -> LOG.warnf("%s: could not quarantine %s, retrying: %s", name,
                        origin.position(), failure.toString()))
                .onFailure().retry().withBackOff(FIRST_BACKOFF, MAX_BACKOFF).indefinitely();
    }

    private void logFailedRound(int size, Throwable failure) {
        if (Failures.isTransient(failure)) {
            LOG.warnf("%s: could not apply %d record(s), retrying: %s", name, size, failure.toString());
        } else if (size > 1) {
            // Each record that fails alone is logged once, at WARN, by the quarantine.
            LOG.debugf("%s: a round of %d record(s) failed for good (%s): applying it in halves", name, size,
                    Failures.describe(failure));
        }
    }

    private static <T> List<T> values(List<Consumed.Usable<T>> items) {
        List<T> values = new ArrayList<>(items.size());
        items.forEach(item -> values.add(item.value()));
        return values;
    }
}
