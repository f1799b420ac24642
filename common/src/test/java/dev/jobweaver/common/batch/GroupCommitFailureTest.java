package dev.jobweaver.common.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Group commit when a flush goes wrong: every call of that batch fails with the reason, no other call does, the slot is
 * given back and the next batch goes out.
 */
class GroupCommitFailureTest {

    private final GroupCommitTest.Writes db = new GroupCommitTest.Writes();

    @Test
    void aFailedBatchFailsEachOfItsCallsAndTheNextBatchStillGoesOut() throws Exception {
        GroupCommit<Integer, String> commit = db.commit(10, 1);
        CompletableFuture<String> first = commit.submit(0);
        CompletableFuture<String> second = commit.submit(1);
        CompletableFuture<String> third = commit.submit(2);

        db.fail(0, new IllegalStateException("connection reset"));

        assertThatThrownBy(() -> first.get(1, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(IllegalStateException.class).hasRootCauseMessage("connection reset");
        assertThat(db.batches).containsExactly(List.of(0), List.of(1, 2));
        db.write(1);
        assertThat(second.get(1, TimeUnit.SECONDS)).isEqualTo("row 1");
        assertThat(third.get(1, TimeUnit.SECONDS)).isEqualTo("row 2");
    }

    @Test
    void everyCallOfAFailedBatchGetsTheSameFailureUnwrapped() {
        GroupCommit<Integer, String> commit = db.commit(10, 1);
        commit.submit(0);
        List<CompletableFuture<String>> batch = List.of(commit.submit(1), commit.submit(2), commit.submit(3));
        db.write(0);
        IllegalStateException reason = new IllegalStateException("deadlock detected");

        // A dependent stage reports its failure wrapped in a CompletionException; the calls get the reason itself,
        // also in whenComplete and handle, which see the stored failure as it is.
        db.fail(1, new CompletionException(reason));

        for (CompletableFuture<String> call : batch) {
            assertThat(call.handle((row, failure) -> failure).join()).isSameAs(reason);
        }
    }

    @Test
    void aFlushThatThrowsFailsItsCallsAndGivesItsSlotBack() throws Exception {
        List<List<Integer>> flushed = new ArrayList<>();
        GroupCommit<Integer, String> commit = new GroupCommit<>(10, 1, batch -> {
            flushed.add(batch);
            if (batch.contains(1)) {
                throw new IllegalArgumentException("bad statement");
            }
            return CompletableFuture.completedFuture(batch.stream().map(i -> "row " + i).toList());
        });

        assertThatThrownBy(() -> commit.submit(1).get(1, TimeUnit.SECONDS)).hasRootCauseMessage("bad statement");
        assertThat(commit.batchesInFlight()).isZero();
        assertThat(commit.submit(2).get(1, TimeUnit.SECONDS)).isEqualTo("row 2");
        assertThat(flushed).containsExactly(List.of(1), List.of(2));
    }

    @Test
    void aFlushThatThrowsAnErrorFailsItsCallsAndGivesItsSlotBack() throws Exception {
        GroupCommit<Integer, String> commit = new GroupCommit<>(10, 1, batch -> {
            if (batch.contains(1)) {
                throw new AssertionError("a bug in the flush");
            }
            return CompletableFuture.completedFuture(List.of("fine"));
        });

        CompletableFuture<String> failed = commit.submit(1);

        assertThatThrownBy(failed::join).cause().isInstanceOf(AssertionError.class).hasMessage("a bug in the flush");
        assertThat(commit.batchesInFlight()).isZero();
        assertThat(commit.submit(2).get(1, TimeUnit.SECONDS)).isEqualTo("fine");
    }

    @Test
    void aFlushThatReturnsNoStageFailsItsCalls() {
        GroupCommit<Integer, String> commit = new GroupCommit<>(10, 1, batch -> null);

        assertThatThrownBy(() -> commit.submit(1).get(1, TimeUnit.SECONDS))
                .hasRootCauseInstanceOf(IllegalStateException.class)
                .hasRootCauseMessage("flush returned no stage for a batch of 1");
        assertThat(commit.batchesInFlight()).isZero();
    }

    @Test
    void aFlushThatAnswersTheWrongNumberOfResultsFailsEveryCallOfTheBatch() {
        assertWrongAnswer(List.of(), "a batch of 2 got 0 results");
        assertWrongAnswer(List.of("a", "b", "c"), "a batch of 2 got 3 results");
        assertWrongAnswer(null, "a batch of 2 got no results");
    }

    private static void assertWrongAnswer(List<String> answer, String message) {
        GroupCommitTest.Writes held = new GroupCommitTest.Writes();
        List<CompletionStage<List<String>>> stages = new ArrayList<>();
        GroupCommit<Integer, String> commit = new GroupCommit<>(10, 1, batch -> {
            if (batch.contains(0)) {
                return held.flush(batch); // holds the slot so that 1 and 2 form one batch
            }
            CompletableFuture<List<String>> written = CompletableFuture.completedFuture(answer);
            stages.add(written);
            return written;
        });
        commit.submit(0);
        List<CompletableFuture<String>> calls = Arrays.asList(commit.submit(1), commit.submit(2));

        held.write(0);

        assertThat(stages).hasSize(1);
        for (CompletableFuture<String> call : calls) {
            assertThatThrownBy(call::join).cause().isInstanceOf(IllegalStateException.class).hasMessage(message);
        }
        assertThat(commit.batchesInFlight()).isZero();
    }

    @Test
    void aFailedBatchLeavesTheOtherBatchInFlightAlone() throws Exception {
        GroupCommit<Integer, String> commit = db.commit(10, 2);
        CompletableFuture<String> a = commit.submit(0);
        CompletableFuture<String> b = commit.submit(1);

        db.fail(0, new IllegalStateException("connection reset"));

        assertThat(a).isCompletedExceptionally();
        assertThat(b).isNotDone();
        db.write(1);
        assertThat(b.get(1, TimeUnit.SECONDS)).isEqualTo("row 1");
    }
}
