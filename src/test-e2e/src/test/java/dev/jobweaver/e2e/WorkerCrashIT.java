package dev.jobweaver.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.e2e.support.E2ePlatform;
import dev.jobweaver.e2e.support.Executions;
import dev.jobweaver.e2e.support.HealthyPlatform;
import dev.jobweaver.e2e.support.JobWeaverClient;
import dev.jobweaver.e2e.support.Jobs;
import dev.jobweaver.e2e.support.NativeScenario;
import dev.jobweaver.e2e.support.Recovery;
import dev.jobweaver.local.Platform.Service;
import dev.jobweaver.local.ServiceProcess;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Scenario 5: the worker is killed with SIGKILL while runs of 200 one-second jobs are in flight (the worker has
 * recorded them begun and not finished), then restarted by the supervisor. Every job ends COMPLETED; executions that
 * the crash cut short and ran again are counted and reported (at-least-once is the contract: a duplicate is fine, a
 * loss is not).
 */
@HealthyPlatform
@NativeScenario
class WorkerCrashIT {

    @Test
    void noJobIsLostWhenTheWorkerIsKilled() {
        JobWeaverClient api = E2ePlatform.api();
        String job = Jobs.job("[{\"action\":\"SLEEP\",\"durationMs\":1000},{\"action\":\"LOG\",\"message\":\"done\"}]", 3);
        List<UUID> ids = api.submitMany(job, 200, 8);
        // The kill must find runs in flight, or the scenario proves nothing: the worker's own record says when.
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (Executions.inFlight(ids).isEmpty() && System.nanoTime() < deadline) {
            E2ePlatform.awaitQuietly(20);
        }

        ServiceProcess worker = E2ePlatform.get().instances(Service.WORKER).getFirst();
        long killedAt = System.nanoTime();
        worker.kill();
        // Runs the killed worker had begun and not finished: the only jobs that may run a second time.
        Set<UUID> inFlight = Executions.inFlight(ids);
        assertThat(inFlight).as("runs the worker had begun and not finished when it was killed").isNotEmpty();
        Recovery recovery = Recovery.allCompleted(api, ids, Duration.ofMinutes(4), killedAt);
        Map<UUID, JsonNode> jobs = recovery.jobs();
        double recovered = recovery.seconds();

        Map<UUID, Integer> executions = Executions.perJob(ids);
        assertThat(executions.values()).allSatisfy(n -> assertThat(n).isGreaterThanOrEqualTo(1));
        long retried = jobs.values().stream().filter(j -> j.path("attempts").asInt() > 1).count();
        Set<UUID> ranTwice = executions.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey)
                .collect(java.util.stream.Collectors.toSet());
        System.out.printf("[measure] scenario 5: worker SIGKILLed with %d runs in flight; all %d jobs COMPLETED %.1f s"
                        + " later; jobs executed more than once: %d (retried after the crash: %d); lost: 0%n",
                inFlight.size(), ids.size(), recovered, ranTwice.size(), retried);
        assertThat(ranTwice).as("a job runs again only if it was in flight on the killed worker").isSubsetOf(inFlight);
    }
}
