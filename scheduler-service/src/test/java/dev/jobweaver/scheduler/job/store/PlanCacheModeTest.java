package dev.jobweaver.scheduler.job.store;

import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.testing.PlanCacheModeContract;
import io.quarkus.test.junit.QuarkusTest;

/** The scheduler's pooled sessions plan every execution of a cached statement afresh ({@link PlanCacheModeContract}). */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class PlanCacheModeTest extends PlanCacheModeContract {
}
