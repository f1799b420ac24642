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
import java.util.function.UnaryOperator;
import org.jboss.logging.Logger;

/**
 * The poll of a batch consumer that applies what it reads in all-or-nothing rounds, under the quarantine rule every
 * consumer of the platform follows. A consumer gives it how to read one record ({@link Reader}) and how to apply a
 * round ({@code round}); it does the rest.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>A record that is no usable item (it does not parse, breaks a rule, or is keyed wrongly: whatever the reader
 *       says) is set aside in {@code jobweaver-quarantine} with its original bytes before its poll is
 *       acknowledged.</li>
 *   <li>The usable items of a poll are applied in one round; a round the database refuses for good is split
 *       ({@link Bisection}) until the refused item stands alone, which is set aside while the items beside it are
 *       applied, in order.</li>
 *   <li>A transient failure (database or Kafka unreachable) is retried with back-off, 200 ms to 10 s, until it
 *       succeeds: never skipped, never quarantined. A channel that gave up would stay down, so an outage is waited
 *       out.</li>
 *   <li>The poll is acknowledged only after all that, so its offsets are committed only then; a crash before consumes
 *       it again, which the rounds' idempotence makes harmless. Only a failure that is neither transient nor
 *       permanent (a bug) nacks the poll, which stops the channel.</li>
 * </ul>
 *
 * <h2>Threads</h2>
 * {@link #consume} runs on the consumer's Vert.x event loop and its {@code Uni} completes back on that loop
 * ({@link VertxContexts#backToCaller}); polls are taken one at a time, since the channel waits for the {@code Uni}.
 *
 * @param <T> one usable item of a poll, handed to the round
 */
public final class BatchIntake<T> {

    private static final UnaryOperator<Uni<Void>> RETRY_TRANSIENT = Bisection.retryForever(Duration.ofMillis(200),
            Duration.ofSeconds(10));

    /** What one record is: an item to apply, or a record to set aside and why. */
    public sealed interface Read<T> {

        /** A usable item. */
        record Usable<T>(T item) implements Read<T> {
        }

        /** A record to quarantine. */
        record Unusable<T>(QuarantineReason reason, String detail) implements Read<T> {
        }
    }

    /** Reads one record of a poll. */
    @FunctionalInterface
    public interface Reader<T> {

        /** What {@code record} (whose value is {@code value}) is. */
        Read<T> read(KafkaRecord<String, byte[]> record, byte[] value);
    }

    private record Item<T>(T value, RecordOrigin origin) {
    }

    private record SetAside(RecordOrigin origin, QuarantineReason reason, String detail) {
    }

    private final String what;
    private final Logger log;
    private final Quarantine quarantine;
    private final Reader<T> reader;
    private final Bisection<Item<T>> bisection;

    /**
     * @param what the items, for the log line of a failed poll ("tick(s)", "attempt(s)")
     * @param round applies a round's items all or nothing (one statement or transaction)
     */
    public BatchIntake(String what, Logger log, Quarantine quarantine, Reader<T> reader,
                       Function<List<T>, Uni<Void>> round) {
        this.what = what;
        this.log = log;
        this.quarantine = quarantine;
        this.reader = reader;
        this.bisection = new Bisection<>(items -> round.apply(items.stream().map(Item::value).toList()),
                RETRY_TRANSIENT, (item, failure) -> quarantine.send(item.origin(), failure));
    }

    /**
     * A {@link Reader} of one event type: {@link EventReader} with {@code problem} as its rules, then
     * {@code keyProblem} (the record's key, the event: what is wrong with the key, or null), then {@code item}.
     */
    public static <E, T> Reader<T> events(ObjectMapper mapper, Class<E> type, Function<E, String> problem,
                                          BiFunction<String, E, String> keyProblem,
                                          BiFunction<KafkaRecord<String, byte[]>, E, T> item) {
        return (record, value) -> switch (EventReader.read(mapper, value, type, problem)) {
            case EventReader.Read.Bad<E> bad -> new Read.Unusable<>(bad.reason(), bad.detail());
            case EventReader.Read.Ok<E> ok -> {
                String wrongKey = keyProblem.apply(record.getKey(), ok.event());
                yield wrongKey != null ? new Read.Unusable<>(QuarantineReason.INVALID, wrongKey)
                        : new Read.Usable<>(item.apply(record, ok.event()));
            }
        };
    }

    /** Reads, sets aside, applies and acknowledges one poll; see the guarantees above. */
    public Uni<Void> consume(KafkaRecordBatch<String, byte[]> batch) {
        List<SetAside> unusable = new ArrayList<>();
        List<Item<T>> items = new ArrayList<>(batch.getRecords().size());
        for (KafkaRecord<String, byte[]> record : batch.getRecords()) {
            byte[] value = record.getPayload();
            RecordOrigin origin = RecordOrigin.of(record, value);
            switch (reader.read(record, value)) {
                case Read.Usable<T> usable -> items.add(new Item<>(usable.item(), origin));
                case Read.Unusable<T> bad -> unusable.add(new SetAside(origin, bad.reason(), bad.detail()));
            }
        }
        Uni<Void> done = setAside(unusable)
                .chain(() -> bisection.apply(items))
                .chain(() -> Uni.createFrom().completionStage(batch::ack))
                .onFailure().call(failure -> {
                    log.errorf(failure, "could not apply %d %s or quarantine %d record(s); the channel stops here and"
                            + " the records are consumed again from the last committed offset", items.size(), what,
                            unusable.size());
                    return Uni.createFrom().completionStage(() -> batch.nack(failure)).onFailure().recoverWithNull();
                });
        return VertxContexts.backToCaller(done);
    }

    /** Publishes every unusable record of a poll to the quarantine, in order; completes once Kafka took them all. */
    private Uni<Void> setAside(List<SetAside> unusable) {
        if (unusable.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return Multi.createFrom().iterable(unusable)
                .onItem().transformToUniAndConcatenate(bad -> RETRY_TRANSIENT.apply(Uni.createFrom().deferred(
                        () -> quarantine.send(bad.origin(), bad.reason(), bad.detail()))))
                .collect().last()
                .replaceWithVoid();
    }
}
