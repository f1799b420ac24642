package dev.jobweaver.scheduler.observability;

import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.testing.StoreSizesContract;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;

/** The scheduler's table and index size gauges cover its tables and follow them ({@link StoreSizesContract}). */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class StoreSizesTest extends StoreSizesContract {

    @Inject
    Pool pool;

    @Inject
    MeterRegistry registry;

    StoreSizesTest() {
        super("job_executions");
    }

    @Override
    protected Pool pool() {
        return pool;
    }

    @Override
    protected MeterRegistry registry() {
        return registry;
    }
}
