package dev.jobweaver.api.outbox;

import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * A feature's republisher of rows that are their own outbox ({@link RowOutbox} states the guarantees): each round
 * reads the rows {@link #due} and publishes them one after the other ({@link #republish}), counting those Kafka
 * acknowledged. A row that fails is left for a later round.
 *
 * <h2>A change younger than one round</h2>
 * A round hands {@link #due} the instant {@code settledBefore}, one round ({@link Rounds#every()}) before it starts,
 * and every feature's query takes only rows last changed before it. A younger change is left to its own publish after
 * its commit, which is likely still waiting for Kafka's acknowledgement; if that publish fails, the row is still due a
 * round later. So a change is sent at most once while its first send is in flight (for up to one round), and at least
 * once overall: from one round after its commit, it is due until Kafka acknowledged it. A first send slower than one
 * round, or the republishers of two instances taking the same row, may still send a change twice, which its readers
 * take once.
 *
 * <p>Its rounds are run by the outbox's republish loop ({@link Republisher}), on a Vert.x event loop, never
 * concurrently with themselves; {@link #due} and {@link #republish} must not block.
 *
 * @param <T> one row due, with what publishing it sends
 */
public abstract class RowRepublisher<T> implements UnpublishedEvents {

    private final Logger log;
    private final String rows;

    /**
     * @param log  the feature republisher's, for the debug line of a round
     * @param rows what the rows are in that line, say "schedule(s)"
     */
    protected RowRepublisher(Logger log, String rows) {
        this.log = log;
        this.rows = rows;
    }

    /**
     * The rows due, oldest change first, at most {@link Rounds#batchSize()}: only rows last changed (or deleted) before
     * {@code settledBefore}, one round ago.
     */
    protected abstract Uni<List<T>> due(Instant settledBefore);

    /** Publishes one row; completes once Kafka acknowledged it and the row records it, or fails. */
    protected abstract Uni<Void> republish(T row);

    @Override
    public Uni<Round> publishOldest() {
        return due(settledBefore(Instant.now())).chain(this::publishEach);
    }

    /** The instant before which a round started at {@code now} takes changes: one round earlier. */
    Instant settledBefore(Instant now) {
        return now.minus(rounds().every());
    }

    private Uni<Round> publishEach(List<T> due) {
        if (due.isEmpty()) {
            return Uni.createFrom().item(new Round(0, 0));
        }
        int[] published = {0};
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (T row : due) {
            chain = chain.chain(() -> republish(row)
                    .invoke(() -> published[0]++)
                    .onFailure().recoverWithNull());
        }
        return chain.map(ignored -> {
            if (published[0] > 0) {
                log.debugf("republished %d of %d %s", published[0], due.size(), rows);
            }
            return new Round(due.size(), published[0]);
        });
    }
}
