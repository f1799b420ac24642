package dev.jobweaver.scheduler.job.store;

import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.testing.StatisticsTargetContract;
import io.quarkus.test.junit.QuarkusTest;
import java.util.Map;

/** Every column of {@code job_executions} has an explicit, small statistics target ({@link StatisticsTargetContract}). */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class StatisticsTargetTest extends StatisticsTargetContract {

    StatisticsTargetTest() {
        super("job_executions", Map.of("instruction", 0, "traceparent", 0, "last_error", 0, "job_status", 10));
    }
}
