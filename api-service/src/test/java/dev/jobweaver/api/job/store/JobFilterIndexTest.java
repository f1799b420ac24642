package dev.jobweaver.api.job.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The list filters on priority, tenant and labels can use their partial indexes (migration V5): the planner proves
 * each index's predicate from the filter's value, as the API plans every execution with its parameters. Sequential
 * scans are disabled for the check, since on a small test table one would win on cost alone.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class JobFilterIndexTest {

    @Inject
    Pool pool;

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "priority = $1|HIGH|jobs_priority_created_at_idx",
            "tenant = $1|acme|jobs_tenant_created_at_idx",
            "labels @> $1::text::jsonb|{\"team\":\"billing\"}|jobs_labels_idx",
    })
    void theFilterUsesItsIndex(String condition, String value, String index) {
        String plan = pool.withConnection(c -> c.query("SET enable_seqscan = off").execute()
                        .chain(() -> c.preparedQuery("EXPLAIN SELECT id FROM jobs WHERE " + condition
                                + " ORDER BY created_at DESC, id DESC LIMIT 20").execute(Tuple.of(value)))
                        .map(rows -> StreamSupport.stream(rows.spliterator(), false).map(Row::toJson)
                                .map(Object::toString).collect(Collectors.joining("\n")))
                        .eventually(() -> c.query("RESET enable_seqscan").execute()))
                .await().atMost(Duration.ofSeconds(30));

        assertThat(plan).contains(index);
    }
}
