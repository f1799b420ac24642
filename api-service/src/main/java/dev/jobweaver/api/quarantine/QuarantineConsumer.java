package dev.jobweaver.api.quarantine;

import dev.jobweaver.common.messaging.Channels;
import dev.jobweaver.common.quarantine.Bisection;
import dev.jobweaver.common.quarantine.Failures;
import dev.jobweaver.common.reactive.VertxContexts;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * Stores every record of {@code jobweaver-quarantine} for review ({@link QuarantineStore}), in a consumer group of its
 * own ({@code jobweaver-api-quarantine}), so that the job path never waits for it nor it for the job path.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>A poll's copies are stored in one transaction, and the poll is acknowledged after its commit; a crash before
 *       consumes it again, which stores nothing new (one row per origin and service).</li>
 *   <li>Nothing blocks the partition: any record is stored as what it is ({@link QuarantinedCopy#read} never fails: a
 *       record without the quarantine headers is its own origin). A round the database refuses for good is split
 *       ({@link Bisection}) until the refused copy stands alone; that copy is stored bare (its position, reason and
 *       raw bytes, no text beyond them), and the copies beside it as they are. A bare copy refused as well is logged
 *       at ERROR and passed over; it is still on the topic, for a Kafka client. Unlike the other consumers it never
 *       sets a record aside in {@code jobweaver-quarantine}: that would feed its own input.</li>
 *   <li>A transient failure (the database unreachable) is retried with back-off, 200 ms doubling up to 10 s, until it
 *       succeeds; it never skips a record.</li>
 * </ul>
 *
 * <h2>Threads</h2>
 * Polls are taken one at a time (the method's {@code Uni}), on the consumer's Vert.x event loop; the rounds never
 * block, and a retry after a back-off continues on Mutiny's timer threads, back on the loop for the acknowledgement.
 */
@ApplicationScoped
public class QuarantineConsumer {

    private static final Logger LOG = Logger.getLogger(QuarantineConsumer.class);

    private final QuarantineStore store;
    private final QuarantineMetrics metrics;
    private final Bisection<QuarantinedCopy> bisection;

    public QuarantineConsumer(QuarantineStore store, QuarantineMetrics metrics) {
        this.store = store;
        this.metrics = metrics;
        this.bisection = new Bisection<>(this::storeRound,
                Bisection.retryForever(Duration.ofMillis(200), Duration.ofSeconds(10)), this::storeBare);
    }

    @Incoming(Channels.QUARANTINE_IN)
    public Uni<Void> consume(KafkaRecordBatch<byte[], byte[]> batch) {
        List<QuarantinedCopy> copies = new ArrayList<>(batch.getRecords().size());
        for (KafkaRecord<byte[], byte[]> record : batch.getRecords()) {
            copies.add(QuarantinedCopy.read(record));
        }
        Uni<Void> done = bisection.apply(copies)
                .chain(() -> Uni.createFrom().completionStage(batch::ack))
                .onFailure().invoke(failure -> LOG.errorf(failure, "%s: could not store a poll of %d quarantined"
                        + " record(s); the channel stops here and the poll is consumed again from the last committed"
                        + " offset", Channels.QUARANTINE_IN, copies.size()));
        return VertxContexts.backToCaller(done);
    }

    private Uni<Void> storeRound(List<QuarantinedCopy> copies) {
        return store.store(copies)
                .invoke(stored -> metrics.stored(copies.size(), stored))
                .onFailure().invoke(failure -> {
                    if (Failures.isTransient(failure)) {
                        LOG.warnf("%s: could not store %d quarantined record(s), retrying: %s",
                                Channels.QUARANTINE_IN, copies.size(), failure.toString());
                    }
                })
                .replaceWithVoid();
    }

    /** Stores {@code copy} bare, after the database refused it as read; passes it over if that is refused too. */
    private Uni<Void> storeBare(QuarantinedCopy copy, Throwable refused) {
        LOG.warnf("quarantined record %s (origin %s) refused by the database (%s); storing it bare",
                copy.copyPosition(), copy.origin(), Failures.describe(refused));
        QuarantinedCopy bare = copy.bare(Failures.describe(refused));
        return store.store(List.of(bare))
                .invoke(stored -> {
                    metrics.storedBare();
                    metrics.stored(1, stored);
                })
                .replaceWithVoid()
                .onFailure(failure -> !Failures.isTransient(failure)).recoverWithItem(failure -> {
                    LOG.errorf("quarantined record %s (origin %s) could not be stored even bare (%s); it is passed"
                            + " over and stays on the topic", copy.copyPosition(), copy.origin(),
                            Failures.describe(failure));
                    return null;
                });
    }
}
