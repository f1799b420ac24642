package dev.jobweaver.api.job.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Natural batching: what arrives while a unit is in flight forms the next unit, capped, nothing lost or doubled. */
class GroupCommitQueueTest {

    /** A stage whose units finish only when the test says so. */
    private static final class ManualStage {
        final List<List<Integer>> units = new CopyOnWriteArrayList<>();
        final List<UniEmitter<? super Void>> open = new CopyOnWriteArrayList<>();

        Uni<Void> run(List<Integer> unit) {
            units.add(List.copyOf(unit));
            return Uni.createFrom().emitter(open::add);
        }

        void finishOldest() {
            open.removeFirst().complete(null);
        }
    }

    @Test
    void anItemOfferedToAnIdleQueueStartsAUnitAtOnce() {
        ManualStage stage = new ManualStage();
        GroupCommitQueue<Integer> queue = new GroupCommitQueue<>(256, stage::run, (unit, e) -> { });

        queue.offer(1);

        assertThat(stage.units).containsExactly(List.of(1));
    }

    @Test
    void itemsOfferedWhileAUnitIsInFlightGoTogetherInTheNextUnit() {
        ManualStage stage = new ManualStage();
        GroupCommitQueue<Integer> queue = new GroupCommitQueue<>(256, stage::run, (unit, e) -> { });

        queue.offer(1);
        queue.offer(2);
        queue.offer(3);
        queue.offer(4);
        assertThat(stage.units).as("one unit in flight at a time").hasSize(1);
        assertThat(queue.waiting()).isEqualTo(3);

        stage.finishOldest();

        assertThat(stage.units).containsExactly(List.of(1), List.of(2, 3, 4));
        assertThat(queue.waiting()).isZero();
    }

    @Test
    void aUnitIsCappedAndTheRestFollowsInTheNextUnits() {
        ManualStage stage = new ManualStage();
        GroupCommitQueue<Integer> queue = new GroupCommitQueue<>(3, stage::run, (unit, e) -> { });

        for (int i = 0; i < 8; i++) {
            queue.offer(i);
        }
        stage.finishOldest();
        stage.finishOldest();
        stage.finishOldest();

        assertThat(stage.units).containsExactly(List.of(0), List.of(1, 2, 3), List.of(4, 5, 6), List.of(7));
    }

    @Test
    void aFailingUnitIsReportedAndTheQueueCarriesOn() {
        List<List<Integer>> failedUnits = new ArrayList<>();
        List<List<Integer>> ran = new ArrayList<>();
        GroupCommitQueue<Integer> queue = new GroupCommitQueue<>(10, unit -> {
            ran.add(List.copyOf(unit));
            if (unit.contains(1)) {
                return Uni.createFrom().failure(new IllegalStateException("database down"));
            }
            if (unit.contains(2)) {
                throw new IllegalStateException("bug");
            }
            return Uni.createFrom().voidItem();
        }, (unit, e) -> failedUnits.add(List.copyOf(unit)));

        queue.offer(1);
        queue.offer(2);
        queue.offer(3);

        assertThat(ran).containsExactly(List.of(1), List.of(2), List.of(3));
        assertThat(failedUnits).containsExactly(List.of(1), List.of(2));
    }

    @Test
    void concurrentOffersAreEachProcessedExactlyOnce() throws Exception {
        List<Integer> processed = new CopyOnWriteArrayList<>();
        List<Integer> unitSizes = new CopyOnWriteArrayList<>();
        ExecutorService completer = Executors.newSingleThreadExecutor();
        GroupCommitQueue<Integer> queue = new GroupCommitQueue<>(50, unit -> {
            unitSizes.add(unit.size());
            processed.addAll(unit);
            // completes on another thread, as the database client does
            return Uni.createFrom().voidItem().emitOn(completer);
        }, (unit, e) -> { });
        int threads = 8;
        int perThread = 2_000;
        CountDownLatch done = new CountDownLatch(threads);
        try (ExecutorService offerers = Executors.newFixedThreadPool(threads)) {
            for (int t = 0; t < threads; t++) {
                int base = t * perThread;
                offerers.execute(() -> {
                    for (int i = 0; i < perThread; i++) {
                        queue.offer(base + i);
                    }
                    done.countDown();
                });
            }
            assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (processed.size() < threads * perThread && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        completer.shutdown();

        assertThat(processed).hasSize(threads * perThread).doesNotHaveDuplicates();
        assertThat(unitSizes).allMatch(size -> size >= 1 && size <= 50);
        assertThat(unitSizes.size()).as("items were grouped").isLessThan(threads * perThread);
    }

    @Test
    void aBatchBelowOneIsRefused() {
        assertThatThrownBy(() -> new GroupCommitQueue<Integer>(0, unit -> Uni.createFrom().voidItem(), (u, e) -> { }))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
