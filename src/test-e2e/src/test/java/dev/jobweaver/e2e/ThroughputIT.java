package dev.jobweaver.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.e2e.support.E2ePlatform;
import dev.jobweaver.e2e.support.Executions;
import dev.jobweaver.e2e.support.HealthyPlatform;
import dev.jobweaver.e2e.support.JobWeaverClient;
import dev.jobweaver.e2e.support.Jobs;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Scenario 3: 1,000 no-op jobs all reach COMPLETED, none executed twice. A sanity check, not the benchmark. */
@HealthyPlatform
class ThroughputIT {

    private static final int JOBS = 1_000;

    @Test
    void aThousandNoOpJobsCompleteExactlyOnce() {
        JobWeaverClient api = E2ePlatform.api();
        long t0 = System.nanoTime();
        List<UUID> ids = api.submitMany(Jobs.noop(), JOBS, 16);
        double submitted = (System.nanoTime() - t0) / 1e9;

        Map<UUID, JsonNode> jobs = api.awaitAll(ids, JobWeaverClient::terminal, Duration.ofMinutes(3));
        double done = (System.nanoTime() - t0) / 1e9;

        assertThat(jobs).hasSize(JOBS);
        assertThat(jobs.values()).allSatisfy(job -> {
            assertThat(job.path("status").asText()).isEqualTo("COMPLETED");
            assertThat(job.path("attempts").asInt()).isEqualTo(1);
        });
        Map<UUID, Integer> executions = Executions.perJob(ids);
        assertThat(executions.values()).containsOnly(1);
        System.out.printf("[measure] scenario 3: %d jobs submitted in %.1f s, all COMPLETED after %.1f s "
                + "(%.0f jobs/s end to end, including polling); duplicates: %d%n",
                JOBS, submitted, done, JOBS / done, Executions.duplicated(executions));
    }
}
