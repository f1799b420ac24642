package dev.jobweaver.api.deadletter.messaging;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.deadletter.service.DeadLetterService;
import dev.jobweaver.common.event.DeadLetterEvent;
import dev.jobweaver.common.event.EventRules;
import dev.jobweaver.common.messaging.Channels;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.Bisection;
import dev.jobweaver.common.quarantine.EventReader;
import dev.jobweaver.common.quarantine.Quarantine;
import dev.jobweaver.common.quarantine.QuarantineReason;
import dev.jobweaver.common.quarantine.RecordOrigin;
import dev.jobweaver.common.reactive.VertxContexts;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * Keeps every job the scheduler dead-letters on {@code job-dead-letter} for review ({@link DeadLetterService#receive}):
 * a new job's dead letter is stored {@code OPEN}, a newer failure of a stored one (the job was requeued and failed
 * again) reopens it, an older or equal one changes nothing.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>A poll's dead letters are stored in one transaction and the poll is acknowledged after its commit, so its
 *       offsets are committed only then; a crash before consumes them again, which changes nothing more (a failure
 *       not newer than the stored one is ignored).</li>
 *   <li>The quarantine rule of every consumer: a record that does not parse, breaks a rule ({@link EventRules}) or is
 *       not keyed by its jobId is set aside in {@code jobweaver-quarantine} with its original bytes before its poll is
 *       acknowledged; a dead letter the database refuses for good is split out ({@link Bisection}) and set aside, and
 *       the ones beside it are stored. A transient failure (database or Kafka unreachable) is retried with back-off
 *       until it succeeds, never skipped.</li>
 * </ul>
 * Polls are taken one at a time (the method's {@code Uni}), on the consumer's Vert.x event loop.
 */
@ApplicationScoped
public class DeadLetterConsumer {

    private static final Logger LOG = Logger.getLogger(DeadLetterConsumer.class);
    /** As the other consumers: a database outage is waited out, since a channel that gave up stays down. */
    private static final UnaryOperator<Uni<Void>> RETRY_TRANSIENT = Bisection.retryForever(Duration.ofMillis(200),
            Duration.ofSeconds(10));

    /** A usable dead letter and the record it came from. */
    record DeadLetterRecord(DeadLetterEvent event, RecordOrigin origin) {
    }

    /** A record that is no usable dead letter, and why. */
    private record Unusable(RecordOrigin origin, QuarantineReason reason, String detail) {
    }

    private final DeadLetterService deadLetters;
    private final Quarantine quarantine;
    private final ObjectMapper mapper;
    private final Bisection<DeadLetterRecord> bisection;

    public DeadLetterConsumer(DeadLetterService deadLetters, Quarantine quarantine, ObjectMapper mapper) {
        this.deadLetters = deadLetters;
        this.quarantine = quarantine;
        this.mapper = mapper;
        this.bisection = new Bisection<>(this::round, RETRY_TRANSIENT,
                (item, failure) -> quarantine.send(item.origin(), failure));
    }

    /** The quarantine counters of the consumed topic exist, at zero, before its first bad record. */
    void registerCounters(@Observes StartupEvent start) {
        quarantine.register(Topics.JOB_DEAD_LETTER);
    }

    @Incoming(Channels.JOB_DEAD_LETTER_IN)
    public Uni<Void> consume(KafkaRecordBatch<String, byte[]> batch) {
        List<Unusable> unusable = new ArrayList<>();
        List<DeadLetterRecord> events = read(batch.getRecords(), unusable);
        Uni<Void> done = setAside(unusable)
                .chain(() -> bisection.apply(events))
                .chain(() -> Uni.createFrom().completionStage(batch::ack))
                .onFailure().call(failure -> {
                    LOG.errorf(failure, "could not store %d dead letter(s) or quarantine %d record(s); the channel"
                            + " stops here and the records are consumed again from the last committed offset",
                            events.size(), unusable.size());
                    return Uni.createFrom().completionStage(() -> batch.nack(failure))
                            .onFailure().recoverWithNull();
                });
        return VertxContexts.backToCaller(done);
    }

    /** One all-or-nothing transaction of {@code events}; the unit {@link #bisection} splits. */
    private Uni<Void> round(List<DeadLetterRecord> events) {
        return deadLetters.receive(events.stream().map(DeadLetterRecord::event).toList());
    }

    /** Publishes every unusable record of a poll to the quarantine; completes once Kafka acknowledged them all. */
    private Uni<Void> setAside(List<Unusable> unusable) {
        if (unusable.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return Multi.createFrom().iterable(unusable)
                .onItem().transformToUniAndConcatenate(bad -> RETRY_TRANSIENT.apply(Uni.createFrom().deferred(
                        () -> quarantine.send(bad.origin(), bad.reason(), bad.detail()))))
                .collect().last()
                .replaceWithVoid();
    }

    /** The usable dead letters of a poll, in order; the records that are none go to {@code unusable}. */
    private List<DeadLetterRecord> read(List<KafkaRecord<String, byte[]>> records, List<Unusable> unusable) {
        List<DeadLetterRecord> events = new ArrayList<>(records.size());
        for (KafkaRecord<String, byte[]> record : records) {
            byte[] value = record.getPayload();
            RecordOrigin origin = RecordOrigin.of(record, value);
            DeadLetterEvent event;
            switch (EventReader.read(mapper, value, DeadLetterEvent.class, EventRules::problem)) {
                case EventReader.Read.Bad<DeadLetterEvent> bad -> {
                    unusable.add(new Unusable(origin, bad.reason(), bad.detail()));
                    continue;
                }
                case EventReader.Read.Ok<DeadLetterEvent> ok -> event = ok.event();
            }
            String keyProblem = EventRules.keyProblem(record.getKey(), event.jobId());
            if (keyProblem != null) {
                // keyed by another job, it could overtake that job's dead letters
                unusable.add(new Unusable(origin, QuarantineReason.INVALID, keyProblem));
                continue;
            }
            events.add(new DeadLetterRecord(event, origin));
        }
        return events;
    }
}
