package dev.jobweaver.worker.store;

import static dev.jobweaver.worker.store.TestAttempts.TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Finishing a run rewrites its {@code execution_attempts} row in place (a HOT update: no index entry written), which
 * the worker's V2 migration made possible; an index on a column that {@code finish} changes would undo it.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_worker")
class AttemptFinishInPlaceTest {

    private static final int RUNS = 40;
    /** {@code HEAP_ONLY_TUPLE} in {@code t_infomask2}: a version reachable only through the HOT chain. */
    private static final int HEAP_ONLY_TUPLE = 0x8000;

    @Inject
    AttemptRepository attempts;

    @Inject
    Pool pool;

    @Test
    void everyFinishIsAHeapOnlyUpdate() {
        List<UUID> finished = new ArrayList<>();
        for (int i = 0; i < RUNS; i++) {
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

        assertThat(counts.getLong("versions")).isEqualTo(RUNS);
        assertThat(counts.getLong("heap_only")).as("finished rows rewritten in place").isEqualTo(RUNS);
    }
}
