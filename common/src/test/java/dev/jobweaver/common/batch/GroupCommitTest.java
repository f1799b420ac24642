package dev.jobweaver.common.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Group commit on its own: alone at rest, together under load, bounded, results in order, failures to every caller. */
class GroupCommitTest {

    /** A fake database: records each batch and lets the test decide when it is written. */
    private static final class Writes {
        final List<List<Integer>> batches = new CopyOnWriteArrayList<>();
        final List<CompletableFuture<List<String>>> pending = new CopyOnWriteArrayList<>();

        CompletionStage<List<String>> flush(List<Integer> batch) {
            batches.add(batch);
            CompletableFuture<List<String>> written = new CompletableFuture<>();
            pending.add(written);
            return written;
        }

        void write(int index) {
            pending.get(index).complete(batches.get(index).stream().map(i -> "row " + i).toList());
        }
    }

    @Test
    void aCallAtRestGoesOutAloneAtOnce() throws Exception {
        Writes db = new Writes();
        GroupCommit<Integer, String> commit = new GroupCommit<>(10, 1, db::flush);

        CompletableFuture<String> one = commit.submit(1);

        assertThat(db.batches).containsExactly(List.of(1));
        db.write(0);
        assertThat(one.get(1, TimeUnit.SECONDS)).isEqualTo("row 1");
        assertThat(commit.batchesInFlight()).isZero();
    }

    @Test
    void callsThatArriveWhileABatchIsWrittenGoOutTogetherEachWithItsOwnResult() throws Exception {
        Writes db = new Writes();
        GroupCommit<Integer, String> commit = new GroupCommit<>(10, 1, db::flush);

        CompletableFuture<String> first = commit.submit(0);
        List<CompletableFuture<String>> waiting = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            waiting.add(commit.submit(i));
        }
        assertThat(db.batches).as("one batch in flight at most").hasSize(1);

        db.write(0);
        assertThat(first.get(1, TimeUnit.SECONDS)).isEqualTo("row 0");
        assertThat(db.batches).containsExactly(List.of(0), List.of(1, 2, 3, 4, 5));
        assertThat(waiting).noneMatch(CompletableFuture::isDone);

        db.write(1);
        for (int i = 0; i < waiting.size(); i++) {
            assertThat(waiting.get(i).get(1, TimeUnit.SECONDS)).isEqualTo("row " + (i + 1));
        }
    }

    @Test
    void batchesAreBoundedInSizeAndInNumber() {
        Writes db = new Writes();
        GroupCommit<Integer, String> commit = new GroupCommit<>(3, 2, db::flush);

        List<CompletableFuture<String>> all = IntStream.range(0, 11).mapToObj(commit::submit).toList();
        assertThat(db.batches).containsExactly(List.of(0), List.of(1));
        assertThat(commit.batchesInFlight()).isEqualTo(2);

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
    void aFailedBatchFailsEachOfItsCallsAndTheNextBatchStillGoesOut() throws Exception {
        Writes db = new Writes();
        GroupCommit<Integer, String> commit = new GroupCommit<>(10, 1, db::flush);
        CompletableFuture<String> first = commit.submit(0);
        CompletableFuture<String> second = commit.submit(1);

        db.pending.get(0).completeExceptionally(new IllegalStateException("connection reset"));

        assertThatThrownBy(() -> first.get(1, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .hasRootCauseMessage("connection reset");
        db.write(1);
        assertThat(second.get(1, TimeUnit.SECONDS)).isEqualTo("row 1");
    }

    @Test
    void aFlushThatThrowsOrAnswersTheWrongNumberOfResultsFailsItsCalls() {
        GroupCommit<Integer, String> throwing = new GroupCommit<>(10, 1, batch -> {
            throw new IllegalArgumentException("bad statement");
        });
        assertThatThrownBy(() -> throwing.submit(1).get(1, TimeUnit.SECONDS)).hasRootCauseMessage("bad statement");
        assertThat(throwing.batchesInFlight()).isZero();

        GroupCommit<Integer, String> short_ = new GroupCommit<>(10, 1,
                batch -> CompletableFuture.completedFuture(List.of()));
        assertThatThrownBy(() -> short_.submit(1).get(1, TimeUnit.SECONDS)).hasRootCauseMessage(
                "a batch of 1 got 0 results");
    }
}
