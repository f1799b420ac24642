package dev.jobweaver.worker.store;

import static dev.jobweaver.worker.store.TestAttempts.TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.quarantine.Failures;
import dev.jobweaver.common.quarantine.QuarantineReason;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Transaction;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * A row the database refuses for good, group-committed with the rows of other runs: only its own call fails, and
 * permanently; the others are written as if it had not been in their batch.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_worker")
class AttemptRepositoryRefusedRowTest {

    private static final int RUNS = 40;
    private static final int REFUSED = 17;

    @Inject
    AttemptRepository attempts;

    @Inject
    Pool pool;

    @Test
    void aRefusedRowFailsAloneAndTheRowsOfItsBatchAreStored() throws Exception {
        List<ExecutionAttempt> runs = new ArrayList<>();
        for (int i = 0; i <= RUNS; i++) {
            ExecutionAttempt run = running(i);
            runs.add(run);
            attempts.begin(run, TIMEOUT);
        }

        // Hold the first finish in the database (a row lock), so that the others queue behind it and go out together
        // as one statement once it is released: the refused row then shares its batch with the rest.
        SqlConnection holder = pool.getConnection().await().atMost(TIMEOUT);
        Transaction lock = holder.begin().await().atMost(TIMEOUT);
        holder.preparedQuery("SELECT 1 FROM execution_attempts WHERE event_id = $1 FOR UPDATE")
                .execute(Tuple.of(runs.getFirst().eventId())).await().atMost(TIMEOUT);
        List<CompletableFuture<ExecutionAttempt>> finished = new ArrayList<>();
        finished.add(finish(runs.getFirst(), null));
        Thread.sleep(300); // the first finish takes the only statement slot
        for (int i = 1; i <= RUNS; i++) {
            // A NUL character: a text value PostgreSQL refuses (SQL state 22021), whatever the statement.
            finished.add(finish(runs.get(i), i == REFUSED ? "refused \u0000 byte" : i % 2 == 0 ? null : "failed " + i));
        }
        Thread.sleep(500); // every other finish waits for the slot
        lock.commit().await().atMost(TIMEOUT);
        holder.close().await().atMost(TIMEOUT);

        for (int i = 0; i <= RUNS; i++) {
            CompletableFuture<ExecutionAttempt> result = finished.get(i);
            if (i == REFUSED) {
                Throwable failure = result.handle((row, e) -> e).get();
                assertThat(failure).as("the refused row's own call fails").isNotNull();
                assertThat(Failures.permanentReason(failure)).isEqualTo(QuarantineReason.REJECTED_BY_DATABASE);
                assertThat(attempts.find(runs.get(i).eventId(), TIMEOUT).orElseThrow().outcome())
                        .isEqualTo(ExecutionOutcome.RUNNING);
                continue;
            }
            ExecutionAttempt row = result.get();
            assertThat(row.eventId()).isEqualTo(runs.get(i).eventId());
            assertThat(row.outcome()).as("run %d", i).isEqualTo(expected(i));
            assertThat(attempts.find(row.eventId(), TIMEOUT)).contains(row);
        }
    }

    private CompletableFuture<ExecutionAttempt> finish(ExecutionAttempt run, String errorMessage) {
        CompletableFuture<ExecutionAttempt> result = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try {
                result.complete(attempts.finish(run.eventId(), errorMessage == null ? ExecutionOutcome.SUCCESS
                        : ExecutionOutcome.FAILURE, errorMessage, run.startedAt().plusMillis(5), TIMEOUT));
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        });
        return result;
    }

    private static ExecutionOutcome expected(int i) {
        return i % 2 == 0 ? ExecutionOutcome.SUCCESS : ExecutionOutcome.FAILURE;
    }

    private static ExecutionAttempt running(int attempt) {
        return TestAttempts.running(attempt + 1, null);
    }
}
