package dev.jobweaver.common.quarantine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.helpers.test.UniAssertSubscriber;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import io.vertx.sqlclient.DatabaseException;
import java.net.ConnectException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.eclipse.microprofile.reactive.messaging.Metadata;
import org.junit.jupiter.api.Test;

/**
 * The rounds of {@link BatchIntake} without Kafka or a database: a round function that refuses what the test says, and
 * a quarantine whose Kafka acknowledgements the test gives.
 */
class BatchIntakeTest {

    /** What the round function applied, in order, round after round. */
    private final List<Integer> applied = new CopyOnWriteArrayList<>();
    private final AtomicInteger rounds = new AtomicInteger();

    /** A round that fails as the database does for a value too long, whenever it holds {@code bad}. */
    private Uni<Void> refusing(List<Integer> items, int bad) {
        rounds.incrementAndGet();
        if (items.contains(bad)) {
            return Uni.createFrom().failure(new DatabaseException("value too long for type character varying(64)", 0,
                    "22001", null) {
            });
        }
        applied.addAll(items);
        return Uni.createFrom().voidItem();
    }

    private static Quarantine quarantine(RecordingEmitter emitter) {
        return new Quarantine(emitter.emitter(), new SimpleMeterRegistry(), "scheduler-test");
    }

    private static BatchIntake<Integer> intake(Function<List<Integer>, Uni<Void>> apply, Quarantine quarantine) {
        return new BatchIntake<>("test", quarantine, (record, origin) -> {
            throw new UnsupportedOperationException("rounds are given their records");
        }, apply);
    }

    private static RecordOrigin origin(long offset) {
        return new RecordOrigin("job-created", 0, offset, null, "key-" + offset, new RecordHeaders(),
                ("value " + offset).getBytes());
    }

    private static Consumed<Integer> usable(int item) {
        return new Consumed.Usable<>(item, origin(item));
    }

    private static Consumed<Integer> refused(int item) {
        return new Consumed.Refused<>(origin(item), QuarantineReason.UNREADABLE, "not JSON");
    }

    @Test
    void refusedRecordsAreQuarantinedAndTheUsableOnesAppliedInOneRound() {
        RecordingEmitter kafka = RecordingEmitter.acknowledging();
        BatchIntake<Integer> intake = intake(items -> refusing(items, -1), quarantine(kafka));

        intake.round(List.of(usable(1), refused(2), usable(3), refused(4))).await().atMost(Duration.ofSeconds(5));

        assertThat(applied).containsExactly(1, 3);
        assertThat(rounds).hasValue(1);
        assertThat(kafka.sent).extracting(RecordingEmitter.Sent::offset).containsExactlyInAnyOrder(2L, 4L);
        assertThat(kafka.sent).extracting(RecordingEmitter.Sent::reason).containsOnly("UNREADABLE");
    }

    @Test
    void aRoundTheDatabaseRefusesIsSplitUntilTheRecordItRefusesIsQuarantinedAlone() {
        RecordingEmitter kafka = RecordingEmitter.acknowledging();
        BatchIntake<Integer> intake = intake(items -> refusing(items, 13), quarantine(kafka));
        List<Consumed<Integer>> items = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            items.add(usable(i));
        }

        intake.round(items).await().atMost(Duration.ofSeconds(5));

        assertThat(applied).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 15, 16, 17, 18, 19);
        assertThat(kafka.sent).containsExactly(new RecordingEmitter.Sent("key-13", 13, "REJECTED_BY_DATABASE"));
    }

    @Test
    void theRoundCompletesOnlyOnceKafkaAcknowledgedTheQuarantinedCopies() {
        CompletableFuture<Void> ack = new CompletableFuture<>();
        RecordingEmitter kafka = new RecordingEmitter(sent -> Uni.createFrom().completionStage(ack));
        BatchIntake<Integer> intake = intake(items -> refusing(items, 2), quarantine(kafka));

        UniAssertSubscriber<Void> done = intake.round(List.of(usable(1), usable(2), refused(3)))
                .subscribe().withSubscriber(UniAssertSubscriber.create());

        assertThat(kafka.sent).extracting(RecordingEmitter.Sent::offset).containsExactly(3L);
        done.assertNotTerminated();
        ack.complete(null);
        done.awaitItem(Duration.ofSeconds(5));
        assertThat(applied).containsExactly(1);
        assertThat(kafka.sent).extracting(RecordingEmitter.Sent::offset).containsExactly(3L, 2L);
    }

    @Test
    void aCopyKafkaDidNotTakeIsSentAgainNotSkipped() {
        AtomicInteger attempts = new AtomicInteger();
        RecordingEmitter kafka = new RecordingEmitter(sent -> attempts.incrementAndGet() < 3
                ? Uni.createFrom().failure(new IllegalArgumentException("not now"))
                : Uni.createFrom().voidItem());
        BatchIntake<Integer> intake = intake(items -> refusing(items, -1), quarantine(kafka));

        intake.round(List.of(refused(7), usable(8))).await().atMost(Duration.ofSeconds(10));

        assertThat(kafka.sent).extracting(RecordingEmitter.Sent::offset).containsExactly(7L, 7L, 7L);
        assertThat(applied).containsExactly(8);
    }

    @Test
    void aTransientFailureIsRetriedAndQuarantinesNothing() {
        RecordingEmitter kafka = RecordingEmitter.acknowledging();
        AtomicInteger calls = new AtomicInteger();
        BatchIntake<Integer> intake = intake(items -> calls.incrementAndGet() < 3
                ? Uni.createFrom().failure(new ConnectException("database down"))
                : refusing(items, -1), quarantine(kafka));

        intake.round(List.of(usable(1), usable(2))).await().atMost(Duration.ofSeconds(10));

        assertThat(calls).hasValue(3);
        assertThat(applied).containsExactly(1, 2);
        assertThat(kafka.sent).isEmpty();
    }

    @Test
    void anIgnoredRecordIsNeitherAppliedNorQuarantined() {
        RecordingEmitter kafka = RecordingEmitter.acknowledging();
        BatchIntake<Integer> intake = intake(items -> refusing(items, -1), quarantine(kafka));

        intake.round(List.of(usable(1), new Consumed.Ignored<>(origin(2)), usable(3)))
                .await().atMost(Duration.ofSeconds(5));

        assertThat(applied).containsExactly(1, 3);
        assertThat(kafka.sent).isEmpty();
    }

    /** An event of the reader's test: {@code n} must be positive. */
    record Numbered(String id, int n) {
    }

    @Test
    void theEventsReaderRefusesWhatDoesNotParseBreaksARuleOrIsKeyedWrongly() {
        BatchIntake.Reader<Integer> reader = BatchIntake.events(new ObjectMapper(), Numbered.class,
                e -> e.n() > 0 ? null : "n must be positive", (key, e) -> e.id().equals(key) ? null : "wrong key",
                (record, e) -> e.n());

        assertThat(read(reader, "a", "{\"id\":\"a\",\"n\":7}")).isInstanceOfSatisfying(Consumed.Usable.class,
                usable -> assertThat(usable.value()).isEqualTo(7));
        assertThat(read(reader, "a", "not json")).isInstanceOfSatisfying(Consumed.Refused.class,
                refused -> assertThat(refused.reason()).isEqualTo(QuarantineReason.UNREADABLE));
        assertThat(read(reader, "a", "{\"id\":\"a\",\"n\":0}")).isInstanceOfSatisfying(Consumed.Refused.class,
                refused -> assertThat(refused.detail()).isEqualTo("n must be positive"));
        assertThat(read(reader, "b", "{\"id\":\"a\",\"n\":7}")).isInstanceOfSatisfying(Consumed.Refused.class,
                refused -> assertThat(refused.detail()).isEqualTo("wrong key"));
    }

    private static Consumed<Integer> read(BatchIntake.Reader<Integer> reader, String key, String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        KafkaRecord<String, byte[]> record = KafkaRecord.of(key, bytes);
        Consumed<Integer> read = reader.read(record, RecordOrigin.of(record, bytes));
        assertThat(read.origin().value()).isEqualTo(bytes);
        return read;
    }

    @Test
    void aPollIsAcknowledgedOnlyAfterItsRecordsWereAppliedOrQuarantined() {
        CompletableFuture<Void> kafkaAck = new CompletableFuture<>();
        RecordingEmitter kafka = new RecordingEmitter(sent -> Uni.createFrom().completionStage(kafkaAck));
        BatchIntake<Integer> intake = new BatchIntake<>("test", quarantine(kafka), numbers(),
                items -> refusing(items, -1));
        Poll poll = new Poll(List.of(KafkaRecord.of("k", bytes("1")), KafkaRecord.of("k", bytes("x")),
                KafkaRecord.of("k", bytes("3"))), null);

        UniAssertSubscriber<Void> done = intake.consume(poll).subscribe().withSubscriber(UniAssertSubscriber.create());

        assertThat(kafka.sent).hasSize(1);
        assertThat(applied).as("the usable records wait for the quarantined copy").isEmpty();
        assertThat(poll.acked).hasValue(0);
        kafkaAck.complete(null);
        done.awaitItem(Duration.ofSeconds(5));
        assertThat(applied).containsExactly(1, 3);
        assertThat(poll.acked).hasValue(1);
    }

    @Test
    void aFailedPollIsHandedBackToTheChannelAndNeverNacked() {
        BatchIntake<Integer> intake = new BatchIntake<>("test", quarantine(RecordingEmitter.acknowledging()),
                numbers(), items -> refusing(items, -1));
        Poll poll = new Poll(List.of(KafkaRecord.of("k", bytes("1"))), new IllegalStateException("consumer closed"));

        UniAssertSubscriber<Void> done = intake.consume(poll).subscribe().withSubscriber(UniAssertSubscriber.create());

        done.awaitFailure(Duration.ofSeconds(5)).assertFailedWith(IllegalStateException.class, "consumer closed");
        assertThat(applied).containsExactly(1);
        assertThat(poll.nacked).as("a nack on a channel whose failure strategy is ignore commits").hasValue(0);
    }

    @Test
    void aSupersededIntakeAcknowledgesAPollUnappliedOnceItsPoolIsClosed() {
        RecordingEmitter kafka = RecordingEmitter.acknowledging();
        BatchIntake<Integer> intake = new BatchIntake<Integer>("test", quarantine(kafka), numbers(), items -> {
            rounds.incrementAndGet();
            return Uni.createFrom().failure(new IllegalStateException("wrapped", new RuntimeException("Pool closed")));
        }).supersededByNext();
        Poll poll = new Poll(List.of(KafkaRecord.of("k", bytes("1")), KafkaRecord.of("k", bytes("2"))), null);

        intake.consume(poll).await().atMost(Duration.ofSeconds(5));

        assertThat(rounds).as("given up at once, not retried").hasValue(1);
        assertThat(poll.acked).hasValue(1);
        assertThat(kafka.sent).as("a closed pool is no reason to quarantine").isEmpty();
    }

    @Test
    void anyOtherIntakeKeepsRetryingAClosedPoolAndNeverAcknowledgesUnapplied() {
        AtomicInteger closedRounds = new AtomicInteger();
        BatchIntake<Integer> intake = new BatchIntake<>("test", quarantine(RecordingEmitter.acknowledging()),
                numbers(), items -> closedRounds.incrementAndGet() <= 2
                        ? Uni.createFrom().failure(new RuntimeException("Pool closed")) : refusing(items, -1));
        Poll poll = new Poll(List.of(KafkaRecord.of("k", bytes("1"))), null);

        intake.consume(poll).await().atMost(Duration.ofSeconds(10));

        assertThat(closedRounds).as("two rounds on a closed pool, then the one that applied").hasValue(3);
        assertThat(applied).containsExactly(1);
        assertThat(poll.acked).hasValue(1);
    }

    @Test
    void aSupersededIntakeStillRetriesEveryOtherTransientFailure() {
        AtomicInteger calls = new AtomicInteger();
        BatchIntake<Integer> intake = new BatchIntake<Integer>("test", quarantine(RecordingEmitter.acknowledging()),
                numbers(), items -> calls.incrementAndGet() == 1
                        ? Uni.createFrom().failure(new java.io.IOException("connection refused"))
                        : refusing(items, -1)).supersededByNext();
        Poll poll = new Poll(List.of(KafkaRecord.of("k", bytes("7"))), null);

        intake.consume(poll).await().atMost(Duration.ofSeconds(10));

        assertThat(applied).containsExactly(7);
        assertThat(poll.acked).hasValue(1);
    }

    /** Reads a record's value as a number, refusing one that is not. */
    private static BatchIntake.Reader<Integer> numbers() {
        return (record, origin) -> {
            String value = new String(origin.value(), StandardCharsets.UTF_8);
            return value.matches("\\d+") ? new Consumed.Usable<>(Integer.parseInt(value), origin)
                    : new Consumed.Refused<>(origin, QuarantineReason.UNREADABLE, "not a number");
        };
    }

    private static byte[] bytes(String value) {
        return value.getBytes(StandardCharsets.UTF_8);
    }

    /** A poll without Kafka, counting its acknowledgements (which fail with {@code ackFailure}) and nacks. */
    private static final class Poll implements KafkaRecordBatch<String, byte[]> {

        final List<KafkaRecord<String, byte[]>> records;
        final AtomicInteger acked = new AtomicInteger();
        final AtomicInteger nacked = new AtomicInteger();
        private final Throwable ackFailure;

        Poll(List<KafkaRecord<String, byte[]>> records, Throwable ackFailure) {
            this.records = records;
            this.ackFailure = ackFailure;
        }

        @Override
        public List<KafkaRecord<String, byte[]>> getRecords() {
            return records;
        }

        @Override
        public Map<TopicPartition, KafkaRecord<String, byte[]>> getLatestOffsetRecords() {
            return Map.of();
        }

        @Override
        public Iterator<KafkaRecord<String, byte[]>> iterator() {
            return records.iterator();
        }

        @Override
        public List<byte[]> getPayload() {
            return records.stream().map(KafkaRecord::getPayload).toList();
        }

        @Override
        public CompletionStage<Void> ack(Metadata metadata) {
            acked.incrementAndGet();
            return ackFailure == null ? CompletableFuture.completedFuture(null)
                    : CompletableFuture.failedFuture(ackFailure);
        }

        @Override
        public CompletionStage<Void> nack(Throwable reason, Metadata metadata) {
            nacked.incrementAndGet();
            return CompletableFuture.completedFuture(null);
        }
    }
}
