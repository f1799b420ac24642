package dev.jobweaver.api.platform.db;

import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.testing.StoreSizesContract;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;

/** The API's table and index size gauges cover its tables and follow them ({@link StoreSizesContract}). */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class StoreSizesTest extends StoreSizesContract {

    @Inject
    Pool pool;

    @Inject
    MeterRegistry registry;

    StoreSizesTest() {
        super("jobs");
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
