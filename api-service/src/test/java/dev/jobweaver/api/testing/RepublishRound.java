package dev.jobweaver.api.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.arc.Arc;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.vertx.core.runtime.context.VertxContextSafetyToggle;
import io.smallrye.common.vertx.VertxContext;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * What the tests of the republishers' queries share: they read the rows due as a round one day from now would
 * ({@link #start}). Rows stamped as changed around that round are younger than every round of the republishers running
 * in the application, which therefore leave them as the test set them. Closing the round deletes the rows it was told
 * to ({@link #removeOnClose}).
 */
public final class RepublishRound implements AutoCloseable {

    private record Removal(String sql, Object key) {
    }

    private final Instant start;
    private final Duration every;
    private final List<Removal> removals = new ArrayList<>();

    private RepublishRound(Instant start, Duration every) {
        this.start = start;
        this.every = every;
    }

    /** A round of a republisher whose rounds start {@code every}, one day from now. */
    public static RepublishRound of(Duration every) {
        return new RepublishRound(Instant.now().plus(Duration.ofDays(1)).truncatedTo(ChronoUnit.MICROS), every);
    }

    /** When the round starts, to the microsecond the database keeps. */
    public Instant start() {
        return start;
    }

    /** What the round hands its query, one round before its start: changes before it are due. */
    public Instant settledBefore() {
        return start.minus(every);
    }

    /** What the round hands its query for a refresh: rows last published before it are due. */
    public Instant refreshBefore(Duration refreshAfter) {
        return start.minus(refreshAfter);
    }

    /** A change half a round before the round: too young for it. */
    public Instant justChanged() {
        return start.minus(every.dividedBy(2));
    }

    /** A change two rounds before the round: old enough for it. */
    public Instant changedTwoRoundsBefore() {
        return start.minus(every.multipliedBy(2));
    }

    /** Runs {@code sql} with {@code params} (instants as timestamps) and asserts that it changed one row. */
    public void stamp(String sql, Object... params) throws Exception {
        try (Connection db = Database.connect(); PreparedStatement statement = db.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                statement.setObject(i + 1, params[i] instanceof Instant instant
                        ? instant.atOffset(ZoneOffset.UTC) : params[i]);
            }
            assertThat(statement.executeUpdate()).as(sql).isEqualTo(1);
        }
    }

    /** Has {@link #close} run {@code sql}, a delete of one row, with {@code key}. */
    public void removeOnClose(String sql, Object key) {
        removals.add(new Removal(sql, key));
    }

    /** Deletes the rows stamped in the round, so that they never become due for a running republisher. */
    @Override
    public void close() throws Exception {
        for (Removal removal : removals) {
            stamp(removal.sql(), removal.key());
        }
    }

    /**
     * What {@code query} answers, run as a republisher round runs it: in a reactive session of its own, on a Vert.x
     * duplicated context (marked safe, as Hibernate Reactive requires); waits for it from the test's thread.
     */
    public static <T> T inSession(Supplier<Uni<T>> query) throws Exception {
        Context context = VertxContext.getOrCreateDuplicatedContext(Arc.container().instance(Vertx.class).get());
        VertxContextSafetyToggle.setContextSafe(context, true);
        CompletableFuture<T> answer = new CompletableFuture<>();
        context.runOnContext(ignored -> Panache.withSession(query)
                .subscribe().with(answer::complete, answer::completeExceptionally));
        return answer.get(20, TimeUnit.SECONDS);
    }
}
