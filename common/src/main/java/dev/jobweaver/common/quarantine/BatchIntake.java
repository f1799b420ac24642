package dev.jobweaver.common.quarantine;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.reactive.VertxContexts;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * The intake of every batch consumer of the platform: it reads a channel's polls, applies them in all-or-nothing
 * rounds and acknowledges them, under the quarantine rule. A consumer gives it how to read one record
 * ({@link Reader}, usually {@link #events}) and how to apply a round ({@code apply}); it does the rest.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>The quarantine rule: a record that is no usable item (it does not parse, breaks a rule, or is keyed wrongly:
 *       whatever the reader says) is set aside in {@code jobweaver-quarantine} with its original bytes and never
 *       blocks its partition. A round of usable items that the database (or the data) refuses for good is split
 *       ({@link Bisection}) until the refused item stands alone; that record is set aside too, and the items beside it
 *       are applied, in order.</li>
 *   <li>Nothing accepted is lost: a transient failure of a round ({@link Failures#isTransient}: the database or Kafka
 *       unreachable) is retried with back-off, 200 ms doubling up to 10 s, until it succeeds; it never skips or
 *       quarantines a record. A channel that gave up would stay down, so an outage is waited out. A quarantined copy
 *       that Kafka does not take is sent again whatever the failure ({@link Quarantine#sendUntilTaken}), so no record
 *       is acknowledged without its copy. The one exception: an intake whose items are superseded by the next of
 *       their kind ({@link #supersededByNext}) acknowledges a poll unapplied once the service's own database pool is
 *       closed (it stops).</li>
 *   <li>Offsets commit only after processing: a poll is acknowledged only once each of its records was applied by a
 *       successful round or quarantined, with Kafka's acknowledgement of the copy. A crash before consumes it again,
 *       which the rounds' idempotence makes harmless.</li>
 *   <li>A failure that is neither transient nor permanent (a bug) is logged and handed back to the channel, which
 *       stops (its health turns DOWN); the poll is neither acknowledged nor nacked, since a channel whose failure
 *       strategy is {@code ignore} commits a nacked record.</li>
 * </ul>
 * Where the consumers' intakes differed, the safer rule was kept: quarantined copies of a poll are sent one after the
 * other, in the poll's order (never more than one in flight, far under the emitter's buffer), and a copy is retried on
 * any failure, not only on a transient one; a bug stops the channel without a nack.
 *
 * <h2>Rounds</h2>
 * By default each poll is one round ({@link #consume} completes when the poll is acknowledged, so the connector hands
 * over its next poll only then). {@link #inRounds} makes each round take every poll that arrived while the previous
 * round ran ({@link PollRounds}), for a channel whose polls are often small and whose rounds are costly.
 *
 * <h2>Threads</h2>
 * {@link #consume} runs on the consumer's Vert.x event loop and only reads; its {@code Uni} completes back on that
 * loop's context ({@link VertxContexts#backToCaller}). Rounds run one at a time, in the order polls came; a round
 * starts on the caller's thread, and a retry after a back-off continues on Mutiny's timer threads. The round function
 * must not block. An intake is thread-safe, but holds one channel's order: one intake per channel.
 *
 * @param <T> one usable item of a poll, handed to the round function
 */
public final class BatchIntake<T> {

    private static final Logger LOG = Logger.getLogger(BatchIntake.class);

    /** Reads one record of a poll. */
    @FunctionalInterface
    public interface Reader<T> {

        /** What {@code record} is, with {@code origin} (its position, key, headers and raw value) kept. */
        Consumed<T> read(KafkaRecord<String, byte[]> record, RecordOrigin origin);
    }

    private final String name;
    private final Quarantine quarantine;
    private final Reader<T> reader;
    private final Function<List<T>, Uni<Void>> apply;
    private final Bisection<Consumed.Usable<T>> bisection;
    /** Groups polls into rounds, or null when each poll is its own round. */
    private final PollRounds<Consumed<T>> rounds;
    /** Whether each item is superseded by the next of its kind; see {@link #supersededByNext}. */
    private final boolean superseded;

    /**
     * @param name       names the channel in log lines
     * @param quarantine where refused records go
     * @param reader     reads one record
     * @param apply      applies a round's items all or nothing (one statement or transaction); must not retry itself
     */
    public BatchIntake(String name, Quarantine quarantine, Reader<T> reader, Function<List<T>, Uni<Void>> apply) {
        this(name, quarantine, reader, apply, false);
    }

    private BatchIntake(String name, Quarantine quarantine, Reader<T> reader, Function<List<T>, Uni<Void>> apply,
                        boolean superseded) {
        this.name = name;
        this.quarantine = quarantine;
        this.reader = reader;
        this.apply = apply;
        this.superseded = superseded;
        this.bisection = new Bisection<>(
                items -> apply.apply(values(items))
                        .onFailure().invoke(failure -> logFailedRound(items.size(), failure)),
                // a superseded item gives up on a closed pool at once, and consume acknowledges it unapplied
                Bisection.retryForever(Duration.ofMillis(200), Duration.ofSeconds(10),
                        f -> Failures.isTransient(f) && !(superseded && Failures.isPoolClosed(f))),
                (item, failure) -> quarantine.sendUntilTaken(item.origin(), failure));
        this.rounds = null;
    }

    private BatchIntake(BatchIntake<T> single, int maxWaiting, long maxWaitingBytes) {
        this.name = single.name;
        this.quarantine = single.quarantine;
        this.reader = single.reader;
        this.apply = single.apply;
        this.superseded = single.superseded;
        this.bisection = single.bisection;
        this.rounds = new PollRounds<>(name, this::round, maxWaiting, maxWaitingBytes);
    }

    /**
     * This intake, for a channel whose every item is superseded by the next of its kind (a periodic snapshot, such as
     * a worker's heartbeat): a poll that arrives once the service's database pool is closed (it stops) is acknowledged
     * unapplied, at once, instead of being retried until the process ends, which held the service's stop for the
     * consumer's closing timeout. The item the next instance does not see is replaced by the next one sent.
     */
    public BatchIntake<T> supersededByNext() {
        if (rounds != null) {
            throw new IllegalStateException("a superseded intake takes each poll as its own round");
        }
        return new BatchIntake<>(name, quarantine, reader, apply, true);
    }

    /**
     * This intake, with each round taking every poll that arrived while the previous one ran. Up to
     * {@code maxWaiting} records and {@code maxWaitingBytes} of their raw values may wait for the next round before
     * {@link #consume} holds the connector back; see {@link PollRounds}.
     */
    public BatchIntake<T> inRounds(int maxWaiting, long maxWaitingBytes) {
        if (superseded) {
            throw new IllegalStateException("a superseded intake takes each poll as its own round");
        }
        return new BatchIntake<>(this, maxWaiting, maxWaitingBytes);
    }

    /**
     * A {@link Reader} of one event type: {@link EventReader} with {@code problem} as its rules, then
     * {@code keyProblem} (the record's key, the event: what is wrong with the key, or null), then {@code item}.
     */
    public static <E, T> Reader<T> events(ObjectMapper mapper, Class<E> type, Function<E, String> problem,
                                          BiFunction<String, E, String> keyProblem,
                                          BiFunction<KafkaRecord<String, byte[]>, E, T> item) {
        return (record, origin) -> switch (EventReader.read(mapper, origin.value(), type, problem)) {
            case EventReader.Read.Bad<E> bad -> new Consumed.Refused<>(origin, bad.reason(), bad.detail());
            case EventReader.Read.Ok<E> ok -> {
                String wrongKey = keyProblem.apply(record.getKey(), ok.event());
                yield wrongKey != null ? new Consumed.Refused<>(origin, QuarantineReason.INVALID, wrongKey)
                        : new Consumed.Usable<>(item.apply(record, ok.event()), origin);
            }
        };
    }

    /** A {@link #events} reader whose item is the event itself. */
    public static <E> Reader<E> events(ObjectMapper mapper, Class<E> type, Function<E, String> problem,
                                       BiFunction<String, E, String> keyProblem) {
        return events(mapper, type, problem, keyProblem, (record, event) -> event);
    }

    /** Reads one poll and hands it to its round; see the guarantees above. */
    public Uni<Void> consume(KafkaRecordBatch<String, byte[]> batch) {
        List<Consumed<T>> consumed = new ArrayList<>(batch.getRecords().size());
        long bytes = 0;
        for (KafkaRecord<String, byte[]> record : batch.getRecords()) {
            byte[] value = record.getPayload();
            bytes += value == null ? 0 : value.length;
            consumed.add(reader.read(record, RecordOrigin.of(record, value)));
        }
        if (rounds != null) {
            return rounds.offer(consumed, bytes, batch);
        }
        Uni<Void> done = round(consumed)
                .onFailure(f -> superseded && Failures.isPoolClosed(f)).recoverWithItem(closed -> {
                    LOG.debugf("%s: the database pool closed (the service stops): a poll of %d superseded record(s)"
                            + " is acknowledged unapplied", name, consumed.size());
                    return null;
                })
                .chain(() -> Uni.createFrom().completionStage(batch::ack))
                .onFailure().invoke(failure -> LOG.errorf(failure, "%s: could not apply or quarantine a poll of %d"
                        + " record(s); the channel stops here and the poll is consumed again from the last committed"
                        + " offset", name, consumed.size()));
        return VertxContexts.backToCaller(done);
    }

    /**
     * One round: its refused records quarantined, one after the other, then its usable ones applied, split until the
     * ones refused for good stand alone and are quarantined; completes when every record was applied, quarantined or
     * ignored.
     */
    public Uni<Void> round(List<Consumed<T>> round) {
        List<Consumed.Refused<T>> refused = new ArrayList<>();
        List<Consumed.Usable<T>> usable = new ArrayList<>(round.size());
        for (Consumed<T> item : round) {
            switch (item) {
                case Consumed.Usable<T> u -> usable.add(u);
                case Consumed.Refused<T> r -> refused.add(r);
                case Consumed.Ignored<T> ignored -> {
                }
            }
        }
        Uni<Void> setAside = refused.isEmpty() ? Uni.createFrom().voidItem()
                : Multi.createFrom().iterable(refused)
                        .onItem().transformToUniAndConcatenate(r -> quarantine.sendUntilTaken(r.origin(), r.reason(),
                                r.detail()))
                        .collect().last().replaceWithVoid();
        return setAside.chain(() -> bisection.apply(usable));
    }

    private void logFailedRound(int size, Throwable failure) {
        if (Failures.isPoolClosed(failure)) {
            // the service stops: the poll is consumed again by the next instance (or, superseded, given up)
            LOG.debugf("%s: could not apply %d record(s): the database pool is closed", name, size);
        } else if (Failures.isTransient(failure)) {
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
