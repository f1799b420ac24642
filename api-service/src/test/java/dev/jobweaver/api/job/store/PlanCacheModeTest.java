package dev.jobweaver.api.job.store;

import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.testing.PlanCacheModeContract;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;

/** The API's pooled sessions plan every execution of a cached statement afresh ({@link PlanCacheModeContract}). */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class PlanCacheModeTest extends PlanCacheModeContract {

    @Inject
    Pool pool;

    @Override
    protected Pool pool() {
        return pool;
    }
}
