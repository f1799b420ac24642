package dev.jobweaver.common.quarantine;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.helpers.test.UniAssertSubscriber;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.Test;

/**
 * {@link PollRounds} without Kafka: rounds are driven by hand (each round completes when the test says so), and each
 * poll's acknowledgement is counted.
 */
class PollRoundsTest {

    /** The rounds started so far, each with its items and the handle that completes it. */
    private final List<Round> rounds = new CopyOnWriteArrayList<>();

    private record Round(List<String> items, CompletableFuture<Void> done) {
    }

    private PollRounds<String> pollRounds(int maxWaiting) {
        return pollRounds(maxWaiting, Long.MAX_VALUE);
    }

    private PollRounds<String> pollRounds(int maxWaiting, long maxWaitingBytes) {
        return new PollRounds<>("test", items -> {
            Round round = new Round(List.copyOf(items), new CompletableFuture<>());
            rounds.add(round);
            return Uni.createFrom().completionStage(round.done());
        }, maxWaiting, maxWaitingBytes);
    }

    @Test
    void pollsOfferedDuringARoundAreAppliedTogetherByTheNextOneInOrder() {
        PollRounds<String> polls = pollRounds(100);
        AtomicInteger acked = new AtomicInteger();

        polls.offer(List.of("a"), 0, message(acked));
        polls.offer(List.of("b", "c"), 0, message(acked));
        polls.offer(List.of("d"), 0, message(acked));
        assertThat(rounds).hasSize(1);
        assertThat(rounds.getFirst().items()).containsExactly("a");
        assertThat(polls.waiting()).isEqualTo(3);

        rounds.getFirst().done().complete(null);

        assertThat(rounds).hasSize(2);
        assertThat(rounds.get(1).items()).containsExactly("b", "c", "d");
        assertThat(acked).hasValue(1);
        rounds.get(1).done().complete(null);
        assertThat(acked).hasValue(3);
        assertThat(polls.waiting()).isZero();
    }

    @Test
    void aPollIsAcknowledgedOnlyAfterItsRoundSucceeded() {
        PollRounds<String> polls = pollRounds(100);
        AtomicInteger acked = new AtomicInteger();

        polls.offer(List.of("a"), 0, message(acked));
        assertThat(acked).hasValue(0);

        rounds.getFirst().done().completeExceptionally(new IllegalStateException("stopping"));

        assertThat(acked).as("a failed round leaves its polls unacknowledged").hasValue(0);
        polls.offer(List.of("b"), 0, message(acked));
        assertThat(rounds).hasSize(2);
        rounds.get(1).done().complete(null);
        assertThat(acked).hasValue(1);
    }

    @Test
    void beyondTheBoundTheConnectorIsHeldBackUntilARoundTakesThePoll() {
        PollRounds<String> polls = pollRounds(3);
        AtomicInteger acked = new AtomicInteger();

        UniAssertSubscriber<Void> first = polls.offer(List.of("a"), 0, message(acked))
                .subscribe().withSubscriber(UniAssertSubscriber.create());
        UniAssertSubscriber<Void> withinBound = polls.offer(List.of("b", "c"), 0, message(acked))
                .subscribe().withSubscriber(UniAssertSubscriber.create());
        UniAssertSubscriber<Void> beyondBound = polls.offer(items(2), 0, message(acked))
                .subscribe().withSubscriber(UniAssertSubscriber.create());

        first.assertCompleted();
        withinBound.assertCompleted();
        beyondBound.assertNotTerminated();

        rounds.getFirst().done().complete(null);

        beyondBound.assertCompleted();
        assertThat(rounds.get(1).items()).hasSize(4);
    }

    @Test
    void beyondTheByteBoundTheConnectorIsHeldBackEvenWithFewRecords() {
        PollRounds<String> polls = pollRounds(1000, 100_000);
        AtomicInteger acked = new AtomicInteger();

        UniAssertSubscriber<Void> first = polls.offer(List.of("a"), 60_000, message(acked))
                .subscribe().withSubscriber(UniAssertSubscriber.create());
        UniAssertSubscriber<Void> withinBound = polls.offer(List.of("b"), 60_000, message(acked))
                .subscribe().withSubscriber(UniAssertSubscriber.create());
        UniAssertSubscriber<Void> beyondBound = polls.offer(List.of("c"), 60_000, message(acked))
                .subscribe().withSubscriber(UniAssertSubscriber.create());

        first.assertCompleted();
        withinBound.assertCompleted();
        beyondBound.assertNotTerminated();
        assertThat(polls.waitingBytes()).isEqualTo(120_000);

        rounds.getFirst().done().complete(null);

        beyondBound.assertCompleted();
        assertThat(rounds.get(1).items()).containsExactly("b", "c");
        assertThat(polls.waitingBytes()).isZero();
    }

    @Test
    void aPollIsAcknowledgedOnlyAfterKafkaTookTheQuarantinedCopiesOfItsRound() {
        CompletableFuture<Void> kafkaAck = new CompletableFuture<>();
        RecordingEmitter kafka = new RecordingEmitter(sent -> Uni.createFrom().completionStage(kafkaAck));
        List<String> stored = new CopyOnWriteArrayList<>();
        BatchIntake<String> intake = new BatchIntake<>("test",
                new Quarantine(kafka.emitter(), new SimpleMeterRegistry(), "scheduler-test"), (record, origin) -> {
                    throw new UnsupportedOperationException("rounds are given their records");
                }, items -> {
                    stored.addAll(items);
                    return Uni.createFrom().voidItem();
                });
        PollRounds<Consumed<String>> polls = new PollRounds<>("test", intake::round, 100, Long.MAX_VALUE);
        AtomicInteger acked = new AtomicInteger();
        RecordOrigin origin = new RecordOrigin("job-created", 0, 41, null, "k", new RecordHeaders(), new byte[0]);

        polls.offer(List.of(new Consumed.Usable<>("a", origin),
                new Consumed.Refused<>(origin, QuarantineReason.UNREADABLE, "empty")), 0, message(acked));

        assertThat(kafka.sent).hasSize(1);
        assertThat(acked).as("the copy is not acknowledged yet").hasValue(0);
        kafkaAck.complete(null);
        assertThat(stored).containsExactly("a");
        assertThat(acked).hasValue(1);
    }

    @Test
    void aRoundWithNothingWaitingLetsTheNextPollStartAtOnce() {
        PollRounds<String> polls = pollRounds(100);
        AtomicInteger acked = new AtomicInteger();

        polls.offer(List.of("a"), 0, message(acked));
        rounds.getFirst().done().complete(null);
        polls.offer(List.of("b"), 0, message(acked));

        assertThat(rounds).hasSize(2);
        assertThat(rounds.get(1).items()).containsExactly("b");
    }

    private static List<String> items(int count) {
        List<String> items = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            items.add("x" + i);
        }
        return items;
    }

    private static Message<String> message(AtomicInteger acked) {
        return Message.of("batch", () -> {
            acked.incrementAndGet();
            return CompletableFuture.completedFuture(null);
        });
    }
}
