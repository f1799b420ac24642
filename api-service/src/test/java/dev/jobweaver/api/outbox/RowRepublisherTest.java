package dev.jobweaver.api.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.jboss.logging.Logger;
import org.junit.jupiter.api.Test;

/** {@link RowRepublisher}'s rounds: what they hand the feature's query, and what they publish of it. */
class RowRepublisherTest {

    private static final Duration EVERY = Duration.ofSeconds(5);

    @Test
    void aRoundAsksOnlyForChangesOlderThanOneRound() {
        Recording republisher = new Recording();

        Instant before = Instant.now();
        UnpublishedEvents.Round round = republisher.publishOldest().await().indefinitely();
        Instant after = Instant.now();

        assertThat(republisher.settledBefore).isBetween(before.minus(EVERY), after.minus(EVERY));
        assertThat(round).isEqualTo(new UnpublishedEvents.Round(2, 2));
    }

    @Test
    void settledBeforeIsOneRoundBeforeTheRoundStarts() {
        Instant start = Instant.parse("2026-01-01T00:00:10Z");

        assertThat(new Recording().settledBefore(start)).isEqualTo(Instant.parse("2026-01-01T00:00:05Z"));
    }

    /** Finds two rows and publishes both; remembers the instant its query was given. */
    private static final class Recording extends RowRepublisher<String> {

        private Instant settledBefore;

        Recording() {
            super(Logger.getLogger(RowRepublisherTest.class), "row(s)");
        }

        @Override
        public Rounds rounds() {
            return new Rounds("recording", EVERY, 10);
        }

        @Override
        protected Uni<List<String>> due(Instant settledBefore) {
            this.settledBefore = settledBefore;
            return Uni.createFrom().item(List.of("a", "b"));
        }

        @Override
        protected Uni<Void> republish(String row) {
            return Uni.createFrom().voidItem();
        }
    }
}
