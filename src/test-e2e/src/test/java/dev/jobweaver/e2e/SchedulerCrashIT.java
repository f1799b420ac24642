package dev.jobweaver.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.e2e.support.E2ePlatform;
import dev.jobweaver.e2e.support.Executions;
import dev.jobweaver.e2e.support.HealthyPlatform;
import dev.jobweaver.e2e.support.JobWeaverClient;
import dev.jobweaver.e2e.support.Jobs;
import dev.jobweaver.e2e.support.Recovery;
import dev.jobweaver.local.Platform.Service;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Scenario 6: the scheduler is killed with SIGKILL mid-stream and restarted; every job still finishes. */
@HealthyPlatform
class SchedulerCrashIT {

    @Test
    void everyJobFinishesAcrossASchedulerCrash() {
        JobWeaverClient api = E2ePlatform.api();
        String job = Jobs.job("[{\"action\":\"SLEEP\",\"durationMs\":100}]", 3);
        List<UUID> ids = new ArrayList<>(api.submitMany(job, 100, 8));
        CompletableFuture<List<UUID>> more = CompletableFuture.supplyAsync(() -> api.submitMany(job, 100, 2));

        E2ePlatform.get().instances(Service.SCHEDULER).getFirst().kill();
        long killedAt = System.nanoTime();
        ids.addAll(more.join());
        double recovered = Recovery.allCompleted(api, ids, Duration.ofMinutes(4), killedAt).seconds();

        Map<UUID, Integer> executions = Executions.perJob(ids);
        System.out.printf("[measure] scenario 6: scheduler SIGKILLed mid-stream; all %d jobs COMPLETED %.1f s later; "
                + "jobs executed more than once: %d%n", ids.size(), recovered, Executions.duplicated(executions));
    }
}
