package dev.jobweaver.worker.execution.persistence;

import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.testing.StatisticsTargetContract;
import io.quarkus.test.junit.QuarkusTest;
import java.util.Map;

/** Every column of {@code execution_attempts} has an explicit, small statistics target ({@link StatisticsTargetContract}). */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_worker")
class StatisticsTargetTest extends StatisticsTargetContract {

    StatisticsTargetTest() {
        super("execution_attempts", Map.of("error_message", 0, "trace_id", 0, "outcome", 10));
    }
}
