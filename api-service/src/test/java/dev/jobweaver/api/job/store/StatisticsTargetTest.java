package dev.jobweaver.api.job.store;

import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.testing.StatisticsTargetContract;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import java.util.Map;

/** Every column of {@code jobs} has an explicit, small statistics target ({@link StatisticsTargetContract}). */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class StatisticsTargetTest extends StatisticsTargetContract {

    @Inject
    Pool pool;

    StatisticsTargetTest() {
        super("jobs", Map.of("instruction", 0, "trace_id", 0, "last_error", 0, "status", 10));
    }

    @Override
    protected Pool pool() {
        return pool;
    }
}
