package dev.jobweaver.api.job.store;

import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.inject.Alternative;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The real {@link SubmissionStore}, whose group inserts a test can hold back or fail; enabled only by test profiles
 * that list it ({@code getEnabledAlternatives}). A singleton, not application-scoped: a client proxy would need a
 * no-args constructor, which the real store does not have.
 */
@Alternative
@Singleton
public class HeldSubmissionStore extends SubmissionStore {

    private final List<List<UUID>> started = new CopyOnWriteArrayList<>();
    private final List<UUID> stored = new CopyOnWriteArrayList<>();
    private final AtomicReference<CompletableFuture<Void>> gate =
            new AtomicReference<>(CompletableFuture.completedFuture(null));
    private final AtomicReference<RuntimeException> failNext = new AtomicReference<>();

    public HeldSubmissionStore(Pool pool) {
        super(pool);
    }

    @Override
    public Uni<Void> insert(List<NewJob> jobs, String relayInstance) {
        List<UUID> ids = jobs.stream().map(NewJob::id).toList();
        started.add(ids);
        RuntimeException failure = failNext.getAndSet(null);
        if (failure != null) {
            return Uni.createFrom().failure(failure);
        }
        return opened(gate).chain(() -> super.insert(jobs, relayInstance)).invoke(() -> stored.addAll(ids));
    }

    /**
     * Completes once {@code gate} is open, on the caller's Vert.x context if it has one: the held statement then runs
     * where it would have run without the hold.
     */
    private static Uni<Void> opened(AtomicReference<CompletableFuture<Void>> gate) {
        io.vertx.core.Context context = Vertx.currentContext();
        Uni<Void> opened = Uni.createFrom().completionStage(gate.get());
        return context == null ? opened
                : opened.emitOn(command -> context.runOnContext(ignored -> command.run()));
    }

    /** From now on inserts wait until {@link #release()}. */
    public void hold() {
        gate.set(new CompletableFuture<>());
    }

    /** Lets held inserts and later ones go. */
    public void release() {
        gate.get().complete(null);
    }

    /** The next insert fails with {@code failure} without touching the database. */
    public void failNext(RuntimeException failure) {
        failNext.set(failure);
    }

    /** The job ids of every insert called, one list per group, in call order. */
    public List<List<UUID>> started() {
        return started;
    }

    /** The jobs whose insert committed. */
    public List<UUID> stored() {
        return stored;
    }

    /** Back to a pass-through store with nothing recorded. */
    public void reset() {
        release();
        failNext.set(null);
        started.clear();
        stored.clear();
    }
}
