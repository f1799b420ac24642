package dev.jobweaver.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.e2e.support.E2ePlatform;
import dev.jobweaver.e2e.support.HealthyPlatform;
import dev.jobweaver.e2e.support.JobWeaverClient;
import dev.jobweaver.e2e.support.Jobs;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Scenario 4: no head-of-line blocking. While one job sleeps 15 s, 200 no-op jobs, which share its partitions (there
 * are only three), complete long before it does: they take about 3.5 s here, so the sleep leaves room for a machine
 * several times slower.
 */
@HealthyPlatform
class HeadOfLineIT {

    @Test
    void fastJobsOvertakeASleepingOne() {
        JobWeaverClient api = E2ePlatform.api();
        UUID sleeper = api.submitAccepted(Jobs.sleeping(15_000));
        api.awaitAll(List.of(sleeper), job -> job.path("status").asText().equals("RUNNING"), Duration.ofSeconds(30));
        long t0 = System.nanoTime();

        List<UUID> fast = api.submitMany(Jobs.noop(), 200, 8);
        Map<UUID, JsonNode> done = api.awaitAll(fast, JobWeaverClient::terminal, Duration.ofSeconds(60));
        double fastSeconds = (System.nanoTime() - t0) / 1e9;
        String sleeperWhenFastDone = api.job(sleeper).path("status").asText();

        assertThat(done.values()).allSatisfy(job -> assertThat(job.path("status").asText()).isEqualTo("COMPLETED"));
        assertThat(sleeperWhenFastDone).isEqualTo("RUNNING");
        JsonNode slow = api.awaitAll(List.of(sleeper), JobWeaverClient::terminal, Duration.ofSeconds(60)).get(sleeper);
        double slowSeconds = (System.nanoTime() - t0) / 1e9;
        assertThat(slow.path("status").asText()).isEqualTo("COMPLETED");
        System.out.printf("[measure] scenario 4: 200 fast jobs done %.1f s after submission while the 15 s job ran; "
                + "it completed at %.1f s%n", fastSeconds, slowSeconds);
    }
}
