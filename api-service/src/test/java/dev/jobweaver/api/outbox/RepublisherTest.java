package dev.jobweaver.api.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import org.junit.jupiter.api.Test;

/** {@link Republisher#publishAll}, the loop every source of unpublished events shares, against scripted rounds. */
class RepublisherTest {

    private static final int BATCH = 3;

    @Test
    void aRoundThatFindsLessThanABatchIsTheLast() {
        Scripted source = new Scripted(new UnpublishedEvents.Round(2, 2), new UnpublishedEvents.Round(1, 1));

        assertThat(Republisher.publishAll(source).await().indefinitely()).isEqualTo(2);
        assertThat(source.roundsRun()).isEqualTo(1);
    }

    @Test
    void fullRoundsAreFollowedAtOnceUntilOneFindsLess() {
        Scripted source = new Scripted(new UnpublishedEvents.Round(BATCH, BATCH), new UnpublishedEvents.Round(BATCH, 2),
                new UnpublishedEvents.Round(1, 1), new UnpublishedEvents.Round(BATCH, BATCH));

        assertThat(Republisher.publishAll(source).await().indefinitely()).isEqualTo(BATCH + 2 + 1);
        assertThat(source.roundsRun()).isEqualTo(3);
    }

    @Test
    void aFullRoundKafkaTookNoneOfIsTheLast() {
        Scripted source = new Scripted(new UnpublishedEvents.Round(BATCH, 0),
                new UnpublishedEvents.Round(BATCH, BATCH));

        assertThat(Republisher.publishAll(source).await().indefinitely()).isZero();
        assertThat(source.roundsRun()).as("a broker that refuses everything costs one round per run").isEqualTo(1);
    }

    @Test
    void aFailingRoundFailsTheRun() {
        Scripted source = new Scripted(new UnpublishedEvents.Round(BATCH, BATCH), null);

        assertThatThrownBy(() -> Republisher.publishAll(source).await().indefinitely())
                .hasMessageContaining("round failed");
        assertThat(source.roundsRun()).isEqualTo(2);
    }

    /** Answers its rounds in order; a null round fails. */
    private static final class Scripted implements UnpublishedEvents {

        private final Deque<Round> script = new ArrayDeque<>();
        private final int scripted;

        Scripted(Round... rounds) {
            for (Round round : rounds) {
                script.addLast(round == null ? new Round(-1, -1) : round);
            }
            scripted = rounds.length;
        }

        int roundsRun() {
            return scripted - script.size();
        }

        @Override
        public Rounds rounds() {
            return new Rounds("scripted", Duration.ofSeconds(1), BATCH);
        }

        @Override
        public Uni<Round> publishOldest() {
            Round round = script.pollFirst();
            if (round == null || round.found() < 0) {
                return Uni.createFrom().failure(new IllegalStateException("round failed"));
            }
            return Uni.createFrom().item(round);
        }
    }
}
