package dev.jobweaver.api.job.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link OutboxCleanup} in isolation: which deletes it sends, and when, against a store that records them (a pure unit
 * test; the real statement is covered by {@code OutboxSweeperTest} and the submission tests).
 */
class OutboxCleanupTest {

    private static final Duration WAIT = Duration.ofSeconds(5);

    private final Vertx vertx = Vertx.vertx();
    private final RecordingStore store = new RecordingStore();

    @AfterEach
    void close() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @Test
    void groupsAcknowledgedWithinTheDelayShareOneDelete() {
        OutboxCleanup cleanup = new OutboxCleanup(store, vertx, Duration.ofMillis(300), 1000);
        List<UUID> first = ids(3);
        List<UUID> second = ids(2);
        long start = System.nanoTime();

        cleanup.deleteLater(first);
        cleanup.deleteLater(second);
        assertThat(store.deletes).as("nothing deleted before the delay").isEmpty();
        assertThat(cleanup.waiting()).isEqualTo(5);

        await().atMost(WAIT).until(() -> store.deletes.size() == 1);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
        assertThat(store.deletes.get(0)).containsExactlyElementsOf(concat(first, second));
        assertThat(cleanup.waiting()).isZero();
    }

    @Test
    void aLaterGroupStartsANewDelay() {
        OutboxCleanup cleanup = new OutboxCleanup(store, vertx, Duration.ofMillis(100), 1000);
        List<UUID> first = ids(1);
        cleanup.deleteLater(first);
        await().atMost(WAIT).until(() -> store.deletes.size() == 1);

        List<UUID> second = ids(1);
        cleanup.deleteLater(second);
        await().atMost(WAIT).until(() -> store.deletes.size() == 2);
        assertThat(store.deletes).containsExactly(first, second);
    }

    @Test
    void aFullBatchIsDeletedWithoutWaiting() {
        OutboxCleanup cleanup = new OutboxCleanup(store, vertx, Duration.ofHours(1), 4);
        List<UUID> three = ids(3);
        cleanup.deleteLater(three);
        assertThat(store.deletes).isEmpty();

        List<UUID> two = ids(2);
        cleanup.deleteLater(two);
        assertThat(store.deletes).containsExactly(concat(three, two));
        assertThat(cleanup.waiting()).isZero();
    }

    @Test
    void noDelayDeletesEachGroupAtOnce() {
        OutboxCleanup cleanup = new OutboxCleanup(store, vertx, Duration.ZERO, 1000);
        List<UUID> first = ids(2);
        List<UUID> second = ids(1);
        cleanup.deleteLater(first);
        cleanup.deleteLater(second);
        assertThat(store.deletes).containsExactly(first, second);
    }

    @Test
    void aFailedDeleteIsLoggedAndLaterOnesStillGo() {
        OutboxCleanup cleanup = new OutboxCleanup(store, vertx, Duration.ofMillis(50), 1000);
        store.failures.set(1);
        cleanup.deleteLater(ids(2));
        await().atMost(WAIT).until(() -> store.attempts.get() == 1);
        assertThat(store.deletes).as("the failed delete").isEmpty();

        List<UUID> later = ids(1);
        cleanup.deleteLater(later);
        await().atMost(WAIT).until(() -> store.deletes.size() == 1);
        assertThat(store.deletes.get(0)).containsExactlyElementsOf(later);
    }

    @Test
    void whatWaitsIsDeletedAtShutdown() {
        OutboxCleanup cleanup = new OutboxCleanup(store, vertx, Duration.ofHours(1), 1000);
        List<UUID> waiting = ids(3);
        cleanup.deleteLater(waiting);

        cleanup.stopping(null);

        assertThat(store.deletes).containsExactly(waiting);
        assertThat(cleanup.waiting()).isZero();
    }

    private static List<UUID> ids(int count) {
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ids.add(UUID.randomUUID());
        }
        return ids;
    }

    private static List<UUID> concat(List<UUID> a, List<UUID> b) {
        List<UUID> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /** Records each delete's ids instead of running it; fails the next {@code failures} of them. */
    private static final class RecordingStore extends OutboxStore {

        final List<List<UUID>> deletes = new CopyOnWriteArrayList<>();
        final AtomicInteger attempts = new AtomicInteger();
        final AtomicInteger failures = new AtomicInteger();

        RecordingStore() {
            super(null);
        }

        @Override
        Uni<Integer> delete(List<UUID> jobIds) {
            attempts.incrementAndGet();
            if (failures.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                return Uni.createFrom().failure(new IllegalStateException("connection refused"));
            }
            deletes.add(List.copyOf(jobIds));
            return Uni.createFrom().item(jobIds.size());
        }
    }
}
