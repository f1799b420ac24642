package dev.jobweaver.api.job.outbox;

import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.inject.Alternative;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The real {@link OutboxStore}, whose deletes of acknowledged rows a test can hold back; enabled only by test profiles
 * that list it ({@code getEnabledAlternatives}). A singleton, not application-scoped: a client proxy would need a
 * no-args constructor, which the real store does not have.
 */
@Alternative
@Singleton
public class HeldOutboxStore extends OutboxStore {

    private final AtomicReference<CompletableFuture<Void>> gate =
            new AtomicReference<>(CompletableFuture.completedFuture(null));

    public HeldOutboxStore(Pool pool) {
        super(pool);
    }

    @Override
    Uni<Integer> delete(List<UUID> jobIds) {
        io.vertx.core.Context context = Vertx.currentContext();
        Uni<Void> opened = Uni.createFrom().completionStage(gate.get());
        // the held statement then runs where it would have run without the hold
        return (context == null ? opened : opened.emitOn(command -> context.runOnContext(ignored -> command.run())))
                .chain(() -> super.delete(jobIds));
    }

    /** From now on deletes wait until {@link #releaseDeletes()}. */
    public void holdDeletes() {
        gate.set(new CompletableFuture<>());
    }

    /** Lets held deletes and later ones go. */
    public void releaseDeletes() {
        gate.get().complete(null);
    }
}
