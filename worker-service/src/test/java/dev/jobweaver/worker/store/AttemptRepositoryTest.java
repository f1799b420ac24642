package dev.jobweaver.worker.store;

import static dev.jobweaver.worker.store.TestAttempts.TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * {@code execution_attempts} against PostgreSQL with many concurrent runs, so that begin and finish are group-committed
 * into multi-row statements: each run still gets exactly its own row and the single-row rules. Finishing a run
 * rewrites its row in place (a HOT update: no index entry written), which the worker's V2 migration made possible; an
 * index on a column that {@code finish} changes would undo it.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_worker")
class AttemptRepositoryTest {

    private static final int RUNS = 300;
    private static final int IN_PLACE_RUNS = 40;
    /** {@code HEAP_ONLY_TUPLE} in {@code t_infomask2}: a version reachable only through the HOT chain. */
    private static final int HEAP_ONLY_TUPLE = 0x8000;

    @Inject
    AttemptRepository attempts;

    @Inject
    Pool pool;

    @Test
    void concurrentRunsEachCreateAndCloseTheirOwnRow() throws Exception {
        List<ExecutionAttempt> runs = new ArrayList<>();
        for (int i = 0; i < RUNS; i++) {
            runs.add(running(i));
        }

        List<AttemptRepository.Begin> begun = all(runs.stream()
                .<Callable<AttemptRepository.Begin>>map(run -> () -> attempts.begin(run, TIMEOUT)).toList());
        for (int i = 0; i < RUNS; i++) {
            assertThat(begun.get(i).created()).isTrue();
            assertThat(begun.get(i).attempt()).isEqualTo(runs.get(i));
        }

        List<ExecutionAttempt> finished = all(runs.stream().<Callable<ExecutionAttempt>>map(run -> () -> attempts.finish(
                run.eventId(), run.attempt() % 2 == 0 ? ExecutionOutcome.SUCCESS : ExecutionOutcome.FAILURE,
                run.attempt() % 2 == 0 ? null : "failed " + run.attempt(), run.startedAt().plusMillis(5), TIMEOUT))
                .toList());
        for (int i = 0; i < RUNS; i++) {
            ExecutionAttempt row = finished.get(i);
            assertThat(row.eventId()).isEqualTo(runs.get(i).eventId());
            assertThat(row.outcome()).isEqualTo(i % 2 == 0 ? ExecutionOutcome.SUCCESS : ExecutionOutcome.FAILURE);
            assertThat(row.errorMessage()).isEqualTo(i % 2 == 0 ? null : "failed " + i);
            assertThat(row.finishedAt()).isEqualTo(runs.get(i).startedAt().plusMillis(5));
            assertThat(attempts.find(row.eventId(), TIMEOUT)).contains(row);
        }
    }

    @Test
    void aDuplicateAmongNewRunsGetsTheStoredRowAndASecondCloseChangesNothing() throws Exception {
        ExecutionAttempt done = running(7);
        attempts.begin(done, TIMEOUT);
        ExecutionAttempt closed = attempts.finish(done.eventId(), ExecutionOutcome.SUCCESS, null, done.startedAt(),
                TIMEOUT);

        List<ExecutionAttempt> batch = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            batch.add(i == 50 ? ExecutionAttempt.running(done.eventId(), done.jobId(), 7, null, Instant.now(),
                    "another-worker") : running(i));
        }
        List<AttemptRepository.Begin> begun = all(batch.stream()
                .<Callable<AttemptRepository.Begin>>map(run -> () -> attempts.begin(run, TIMEOUT)).toList());

        assertThat(begun.get(50).created()).isFalse();
        assertThat(begun.get(50).attempt()).isEqualTo(closed);
        assertThat(begun.stream().filter(AttemptRepository.Begin::created)).hasSize(99);
        // Closed already: a late close (another worker's) leaves the row as it is and returns it.
        assertThat(attempts.finish(done.eventId(), ExecutionOutcome.FAILURE, "late", Instant.now(), TIMEOUT))
                .isEqualTo(closed);
    }

    @Test
    void theSameRunBegunTwiceAtOnceIsCreatedOnce() throws Exception {
        List<Callable<AttemptRepository.Begin>> calls = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            ExecutionAttempt run = running(i);
            calls.add(() -> attempts.begin(run, TIMEOUT));
            calls.add(() -> attempts.begin(run, TIMEOUT));
        }
        List<AttemptRepository.Begin> begun = all(calls);
        for (int i = 0; i < 50; i++) {
            AttemptRepository.Begin a = begun.get(2 * i);
            AttemptRepository.Begin b = begun.get(2 * i + 1);
            assertThat(a.created() ^ b.created()).as("exactly one of the pair %d created the row", i).isTrue();
            assertThat(a.attempt()).isEqualTo(b.attempt());
        }
    }

    @Test
    void everyFinishIsAHeapOnlyUpdate() {
        List<UUID> finished = new ArrayList<>();
        for (int i = 0; i < IN_PLACE_RUNS; i++) {
            ExecutionAttempt run = TestAttempts.running(1, "trace-" + i);
            attempts.begin(run, TIMEOUT);
            attempts.finish(run.eventId(), i % 3 == 0 ? ExecutionOutcome.FAILURE : ExecutionOutcome.SUCCESS,
                    i % 3 == 0 ? "failed" : null, run.startedAt().plusMillis(3), TIMEOUT);
            finished.add(run.eventId());
        }

        pool.query("CREATE EXTENSION IF NOT EXISTS pageinspect").execute().await().atMost(TIMEOUT);
        // Each current version, found by its ctid (page, line pointer), with its header flags from the page itself.
        Row counts = pool.preparedQuery("""
                        SELECT count(*) AS versions,
                               count(*) FILTER (WHERE (h.t_infomask2 & $2) <> 0) AS heap_only
                        FROM execution_attempts a
                        CROSS JOIN LATERAL heap_page_items(
                            get_raw_page('execution_attempts', (a.ctid::text::point)[0]::int)) h
                        WHERE a.event_id = ANY($1) AND h.lp = (a.ctid::text::point)[1]::int""")
                .execute(Tuple.of(finished.toArray(UUID[]::new), HEAP_ONLY_TUPLE))
                .await().atMost(TIMEOUT).iterator().next();

        assertThat(counts.getLong("versions")).isEqualTo(IN_PLACE_RUNS);
        assertThat(counts.getLong("heap_only")).as("finished rows rewritten in place").isEqualTo(IN_PLACE_RUNS);
    }

    private static ExecutionAttempt running(int attempt) {
        return TestAttempts.running(attempt, "trace-" + attempt);
    }

    /** Runs every call at once on its own virtual thread, as concurrent runs do; results in the calls' order. */
    private static <T> List<T> all(List<Callable<T>> calls) throws Exception {
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<T>> futures = threads.invokeAll(calls);
            List<T> results = new ArrayList<>();
            for (Future<T> f : futures) {
                results.add(f.get());
            }
            return results;
        }
    }
}
