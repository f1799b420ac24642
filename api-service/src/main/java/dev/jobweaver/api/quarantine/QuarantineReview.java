package dev.jobweaver.api.quarantine;

import dev.jobweaver.api.platform.db.Slice;
import dev.jobweaver.common.messaging.Topics;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;

/**
 * The review of quarantined records: lists and reads them, replays one (publishes its original record again) or
 * discards one. Called on a Vert.x event loop; never blocks.
 *
 * <p>A replay publishes first and commits after: the row is locked, Kafka acknowledges the record, then the row
 * becomes {@code REPLAYED}. A record Kafka did not take leaves the row {@code KEPT} (the transaction rolls back). The
 * reverse gap (the record sent, the commit lost) leaves the row {@code KEPT} after a replay that happened; a second
 * replay then publishes the record once more, which the platform's consumers, idempotent by their events' ids and
 * versions, take as a redelivery.
 */
@ApplicationScoped
public class QuarantineReview {

    /** What a replay or a discard came to. */
    public sealed interface Outcome {
    }

    /** Done: the record as it is now. */
    public record Done(StoredQuarantinedRecord record) implements Outcome {
    }

    /** No record has this id. */
    public record Missing() implements Outcome {
    }

    /** The record was replayed or discarded already; nothing changed. */
    public record NotKept(StoredQuarantinedRecord record) implements Outcome {
    }

    /** The record names no origin topic (it came without the quarantine headers); nothing changed. */
    public record NoOrigin(StoredQuarantinedRecord record) implements Outcome {
    }

    private final QuarantineStore store;
    private final ReplayPublisher publisher;
    private final QuarantineMetrics metrics;

    public QuarantineReview(QuarantineStore store, ReplayPublisher publisher, QuarantineMetrics metrics) {
        this.store = store;
        this.publisher = publisher;
        this.metrics = metrics;
    }

    /** A page of the records {@code filter} covers, newest first. */
    @WithSpan("list quarantined records")
    public Uni<Slice<StoredQuarantinedRecord>> list(QuarantineStore.Filter filter, int page, int size) {
        return Slice.read(store.page(filter, page, size), () -> store.count(filter), r -> r);
    }

    /**
     * Publishes the original record of {@code id} to its topic again and marks it {@code REPLAYED} by {@code actor};
     * fails with {@link ReplayFailedException}, the row unchanged, when Kafka did not acknowledge it in time.
     */
    @WithSpan("replay quarantined record")
    public Uni<Outcome> replay(UUID id, String actor) {
        return store.<Outcome>reviewLocked(id, review -> {
            Outcome refused = refusal(review.locked());
            if (refused != null) {
                return Uni.createFrom().item(refused);
            }
            QuarantineStore.Locked locked = review.locked();
            if (Topics.QUARANTINE.equals(locked.record().topic())) {
                return Uni.createFrom().item(new NoOrigin(locked.record()));
            }
            return publisher.publish(locked.record().topic(), locked.key(), locked.value(), locked.headers())
                    .chain(() -> review.mark(QuarantineState.REPLAYED, actor))
                    .map(Done::new);
        }).invoke(outcome -> {
            if (outcome instanceof Done) {
                metrics.replayed();
            }
        });
    }

    /** Marks the record {@code id} {@code DISCARDED} by {@code actor}: kept for the record, never replayed. */
    @WithSpan("discard quarantined record")
    public Uni<Outcome> discard(UUID id, String actor) {
        return store.<Outcome>reviewLocked(id, review -> {
            Outcome refused = refusal(review.locked());
            return refused != null ? Uni.createFrom().item(refused)
                    : review.mark(QuarantineState.DISCARDED, actor).map(Done::new);
        }).invoke(outcome -> {
            if (outcome instanceof Done) {
                metrics.discarded();
            }
        });
    }

    private static Outcome refusal(QuarantineStore.Locked locked) {
        if (locked == null) {
            return new Missing();
        }
        if (locked.record().state() != QuarantineState.KEPT) {
            return new NotKept(locked.record());
        }
        return null;
    }
}
