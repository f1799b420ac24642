package dev.jobweaver.worker.execution.persistence;

import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.testing.PlanCacheModeContract;
import io.quarkus.test.junit.QuarkusTest;

/** The worker's pooled sessions plan every execution of a cached statement afresh ({@link PlanCacheModeContract}). */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_worker")
class PlanCacheModeTest extends PlanCacheModeContract {
}
