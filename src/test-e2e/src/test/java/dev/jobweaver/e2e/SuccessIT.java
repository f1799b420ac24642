package dev.jobweaver.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.e2e.support.E2ePlatform;
import dev.jobweaver.e2e.support.Executions;
import dev.jobweaver.e2e.support.HealthyPlatform;
import dev.jobweaver.e2e.support.JobWeaverClient;
import dev.jobweaver.e2e.support.Jobs;
import dev.jobweaver.e2e.support.NativeScenario;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Scenario 1: a job with every step type that succeeds reaches COMPLETED after one attempt. */
@HealthyPlatform
@NativeScenario
class SuccessIT {

    @Test
    void aJobWithEveryStepTypeCompletesInOneAttempt() {
        JobWeaverClient api = E2ePlatform.api();
        long t0 = System.nanoTime();
        UUID id = api.submitAccepted(Jobs.everyStep());

        JsonNode job = api.awaitAll(List.of(id), JobWeaverClient::terminal, Duration.ofSeconds(60)).get(id);
        double seconds = (System.nanoTime() - t0) / 1e9;

        assertThat(job.path("status").asText()).isEqualTo("COMPLETED");
        assertThat(job.path("attempts").asInt()).isEqualTo(1);
        assertThat(job.path("retryCount").asInt()).isZero();
        assertThat(job.path("lastError").isNull() || job.path("lastError").isMissingNode()).isTrue();
        assertThat(job.path("finishedAt").asText()).isNotBlank();
        assertThat(job.path("payload").path("steps")).hasSize(4);
        assertThat(Executions.perJob(List.of(id))).containsEntry(id, 1);
        System.out.printf("[measure] scenario 1: every-step job COMPLETED in %.2f s (submit to visible COMPLETED)%n",
                seconds);
    }
}
