package dev.jobweaver.common.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Group commit's batching: alone at rest, together under load, bounded in size and number, batches and results in
 * order, and on which thread flush runs and results complete.
 */
class GroupCommitTest {

    /** A fake database: records each batch and lets the test decide when (and on which thread) it is written. */
    static final class Writes {
        final List<List<Integer>> batches = new CopyOnWriteArrayList<>();
        final List<String> flushThreads = new CopyOnWriteArrayList<>();
        final List<CompletableFuture<List<String>>> pending = new CopyOnWriteArrayList<>();

        CompletionStage<List<String>> flush(List<Integer> batch) {
            batches.add(batch);
            flushThreads.add(Thread.currentThread().getName());
            CompletableFuture<List<String>> written = new CompletableFuture<>();
            pending.add(written);
            return written;
        }

        void write(int index) {
            pending.get(index).complete(batches.get(index).stream().map(i -> "row " + i).toList());
        }

        /** Fails the flush of batch {@code index} with {@code reason}. */
        void fail(int index, Throwable reason) {
            pending.get(index).completeExceptionally(reason);
        }

        /** A group commit that flushes into these writes. */
        GroupCommit<Integer, String> commit(int maxBatchSize, int maxInFlight) {
            return new GroupCommit<>(maxBatchSize, maxInFlight, this::flush);
        }
    }

    private final Writes db = new Writes();

    @Test
    void aCallAtRestGoesOutAloneAtOnce() throws Exception {
        GroupCommit<Integer, String> commit = db.commit(10, 1);

        CompletableFuture<String> one = commit.submit(1);

        assertThat(db.batches).containsExactly(List.of(1));
        assertThat(commit.batchesInFlight()).isEqualTo(1);
        assertThat(one).isNotDone();
        db.write(0);
        assertThat(one.get(1, TimeUnit.SECONDS)).isEqualTo("row 1");
        assertThat(commit.batchesInFlight()).isZero();
        assertThat(commit.waiting()).isZero();
    }

    @Test
    void callsThatArriveWhileABatchIsWrittenGoOutTogetherEachWithItsOwnResult() throws Exception {
        GroupCommit<Integer, String> commit = db.commit(10, 1);

        CompletableFuture<String> first = commit.submit(0);
        List<CompletableFuture<String>> waiting = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            waiting.add(commit.submit(i));
        }
        assertThat(db.batches).as("one batch in flight at most").hasSize(1);
        assertThat(commit.waiting()).isEqualTo(5);

        db.write(0);
        assertThat(first.get(1, TimeUnit.SECONDS)).isEqualTo("row 0");
        assertThat(db.batches).containsExactly(List.of(0), List.of(1, 2, 3, 4, 5));
        assertThat(commit.waiting()).isZero();
        assertThat(waiting).noneMatch(CompletableFuture::isDone);

        db.write(1);
        for (int i = 0; i < waiting.size(); i++) {
            assertThat(waiting.get(i).get(1, TimeUnit.SECONDS)).isEqualTo("row " + (i + 1));
        }
    }

    @Test
    void aBatchIsCappedAndTheRestFollowsOldestFirst() {
        GroupCommit<Integer, String> commit = db.commit(3, 1);

        for (int i = 0; i < 8; i++) {
            commit.submit(i);
        }
        db.write(0);
        db.write(1);
        db.write(2);

        assertThat(db.batches).containsExactly(List.of(0), List.of(1, 2, 3), List.of(4, 5, 6), List.of(7));
    }

    @Test
    void batchesAreBoundedInSizeAndInNumber() {
        GroupCommit<Integer, String> commit = db.commit(3, 2);

        List<CompletableFuture<String>> all = IntStream.range(0, 11).mapToObj(commit::submit).toList();
        assertThat(db.batches).containsExactly(List.of(0), List.of(1));
        assertThat(commit.batchesInFlight()).isEqualTo(2);
        assertThat(commit.waiting()).isEqualTo(9);

        db.write(0);
        assertThat(db.batches).containsExactly(List.of(0), List.of(1), List.of(2, 3, 4));
        db.write(1);
        db.write(2);
        assertThat(db.batches).containsExactly(List.of(0), List.of(1), List.of(2, 3, 4), List.of(5, 6, 7),
                List.of(8, 9, 10));
        db.write(3);
        db.write(4);
        assertThat(all).allMatch(f -> f.isDone() && !f.isCompletedExceptionally());
        assertThat(commit.batchesInFlight()).isZero();
    }

    @Test
    void batchesInFlightMayFinishInAnyOrderAndEachCallGetsItsOwnResult() throws Exception {
        GroupCommit<Integer, String> commit = db.commit(10, 2);
        CompletableFuture<String> a = commit.submit(0);
        CompletableFuture<String> b = commit.submit(1);

        db.write(1);

        assertThat(b.get(1, TimeUnit.SECONDS)).isEqualTo("row 1");
        assertThat(a).isNotDone();
        db.write(0);
        assertThat(a.get(1, TimeUnit.SECONDS)).isEqualTo("row 0");
    }

    @Test
    void resultsOfABatchCompleteInItsOrderAfterTheNextBatchWentOut() {
        GroupCommit<Integer, String> commit = db.commit(10, 1);
        commit.submit(0);
        List<String> resumed = new CopyOnWriteArrayList<>();
        AtomicInteger batchesSeenByFirstCaller = new AtomicInteger(-1);
        for (int i = 1; i <= 3; i++) {
            int item = i;
            commit.submit(i).thenAccept(row -> {
                batchesSeenByFirstCaller.compareAndSet(-1, db.batches.size());
                resumed.add(item + "=" + row);
            });
        }
        db.write(0);
        commit.submit(4);

        db.write(1);

        assertThat(resumed).containsExactly("1=row 1", "2=row 2", "3=row 3");
        assertThat(batchesSeenByFirstCaller).as("the batch of 4 was flushed before the callers of 1..3 resumed")
                .hasValue(3);
    }

    @Test
    void aBatchWrittenBeforeFlushReturnedIsAlsoAnsweredAfterTheNextBatchWentOut() {
        CompletableFuture<List<String>> firstWrite = new CompletableFuture<>();
        List<List<Integer>> batches = new CopyOnWriteArrayList<>();
        GroupCommit<Integer, String> commit = new GroupCommit<>(1, 1, batch -> {
            batches.add(batch);
            return batch.contains(0) ? firstWrite
                    : CompletableFuture.completedFuture(List.of("row " + batch.getFirst()));
        });
        commit.submit(0);
        AtomicInteger batchesSeenByCallerOf1 = new AtomicInteger(-1);
        commit.submit(1).thenRun(() -> batchesSeenByCallerOf1.set(batches.size()));
        CompletableFuture<String> last = commit.submit(2);

        firstWrite.complete(List.of("row 0"));

        assertThat(batches).containsExactly(List.of(0), List.of(1), List.of(2));
        assertThat(batchesSeenByCallerOf1).as("the batch of 2 was flushed before the caller of 1 resumed").hasValue(3);
        assertThat(last).isCompletedWithValue("row 2");
    }

    @Test
    void flushRunsOnTheFreeingThreadAndResultsCompleteOnTheWritingThread() throws Exception {
        GroupCommit<Integer, String> commit = db.commit(10, 1);
        commit.submit(0);
        AtomicReference<String> resumedOn = new AtomicReference<>();
        commit.submit(1).thenRun(() -> resumedOn.set(Thread.currentThread().getName()));

        Thread database = Thread.ofPlatform().name("fake-db-1").start(() -> db.write(0));
        database.join();
        assertThat(db.flushThreads).containsExactly(Thread.currentThread().getName(), "fake-db-1");

        Thread.ofPlatform().name("fake-db-2").start(() -> db.write(1)).join();
        assertThat(resumedOn).hasValue("fake-db-2");
    }

    @Test
    void boundsBelowOneAndAMissingFlushAreRefused() {
        assertThatThrownBy(() -> new GroupCommit<Integer, String>(0, 1, batch -> null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxBatchSize");
        assertThatThrownBy(() -> new GroupCommit<Integer, String>(1, 0, batch -> null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxBatchesInFlight");
        assertThatThrownBy(() -> new GroupCommit<Integer, String>(1, 1, null))
                .isInstanceOf(NullPointerException.class);
    }
}
