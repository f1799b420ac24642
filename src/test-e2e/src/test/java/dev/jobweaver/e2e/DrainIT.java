package dev.jobweaver.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.e2e.support.E2ePlatform;
import dev.jobweaver.e2e.support.Executions;
import dev.jobweaver.e2e.support.HealthyPlatform;
import dev.jobweaver.e2e.support.JobWeaverClient;
import dev.jobweaver.e2e.support.Jobs;
import dev.jobweaver.e2e.support.Recovery;
import dev.jobweaver.local.Platform.Service;
import dev.jobweaver.local.ServiceProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Graceful drain: a worker or a scheduler stopped with SIGTERM while runs are in flight (as Kubernetes stops a pod)
 * exits within its grace period, the runs it had begun finish on it, and the supervisor's restart takes up the rest.
 * Every job ends COMPLETED and none runs twice because of the stop: a duplicate here would be a drain that let a run go
 * without its outcome.
 */
@HealthyPlatform
class DrainIT {

    /** The e2e worker's {@code jobweaver.worker.shutdown-grace-period} (TestConfig), plus the JVM's own stop. */
    private static final Duration WORKER_GRACE = Duration.ofSeconds(10);
    private static final Duration STOP_MARGIN = Duration.ofSeconds(10);

    @Test
    void aWorkerStoppedWithSigtermFinishesWhatItBeganAndNoJobRunsTwice() {
        JobWeaverClient api = E2ePlatform.api();
        // each run takes 1.5 s, far less than the grace period: every run begun can finish before the exit
        String job = Jobs.job("[{\"action\":\"SLEEP\",\"durationMs\":1500},{\"action\":\"LOG\",\"message\":\"drained\"}]",
                3);
        List<UUID> ids = api.submitMany(job, 80, 8);
        awaitSomeRunning(ids);

        ServiceProcess worker = E2ePlatform.get().instances(Service.WORKER).getFirst();
        Set<UUID> begun = Executions.inFlight(ids);
        long stoppedAt = System.nanoTime();
        Duration exited = stop(worker);
        Recovery recovery = Recovery.allCompleted(api, ids, Duration.ofMinutes(3), stoppedAt);

        Map<UUID, Integer> executions = Executions.perJob(ids);
        Map<UUID, Integer> succeeded = Executions.completedPerJob(ids);
        // A run that waited in Kafka past its lease while the worker restarted is dispatched again as the next
        // attempt (its first copy is handed back unrun): that spends an attempt, never a second execution.
        long retried = recovery.jobs().values().stream().filter(j -> j.path("attempts").asInt() > 1).count();
        System.out.printf("[measure] drain: worker SIGTERMed with %d runs in flight, exited after %.1f s; all %d jobs"
                        + " COMPLETED %.1f s after the stop; executed more than once: %d; dispatched again after"
                        + " their lease: %d%n", begun.size(), exited.toMillis() / 1000.0, ids.size(),
                recovery.seconds(), Executions.duplicated(executions), retried);
        assertThat(begun).as("runs were in flight when the worker was stopped").isNotEmpty();
        assertThat(exited).as("the worker exits within its grace period").isLessThan(WORKER_GRACE.plus(STOP_MARGIN));
        assertThat(executions).as("executions per job").allSatisfy((id, n) -> assertThat(n).as("job " + id)
                .isEqualTo(1));
        assertThat(succeeded.values()).containsOnly(1);
    }

    @Test
    void aSchedulerStoppedWithSigtermLosesNothingAndRunsNothingTwice() {
        JobWeaverClient api = E2ePlatform.api();
        String job = Jobs.job("[{\"action\":\"SLEEP\",\"durationMs\":500}]", 3);
        List<UUID> ids = api.submitMany(job, 100, 8);
        // submissions go on while the scheduler stops and comes back: some wait in Kafka for it
        CompletableFuture<List<UUID>> more = CompletableFuture.supplyAsync(() -> api.submitMany(job, 100, 2));

        ServiceProcess scheduler = E2ePlatform.get().instances(Service.SCHEDULER).getFirst();
        long stoppedAt = System.nanoTime();
        Duration exited = stop(scheduler);
        List<UUID> all = new ArrayList<>(ids);
        all.addAll(more.join());
        Recovery recovery = Recovery.allCompleted(api, all, Duration.ofMinutes(3), stoppedAt);

        Map<UUID, Integer> executions = Executions.perJob(all);
        System.out.printf("[measure] drain: scheduler SIGTERMed mid-stream, exited after %.1f s; all %d jobs COMPLETED"
                        + " %.1f s after the stop; executed more than once: %d%n", exited.toMillis() / 1000.0,
                all.size(), recovery.seconds(), Executions.duplicated(executions));
        assertThat(exited).isLessThan(Duration.ofSeconds(30));
        assertThat(executions).as("executions per job").allSatisfy((id, n) -> assertThat(n).as("job " + id)
                .isEqualTo(1));
    }

    /** Waits until at least a few of {@code ids} have a run in progress. */
    private static void awaitSomeRunning(List<UUID> ids) {
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .until(() -> Executions.inFlight(ids).size() >= 2);
    }

    /** SIGTERM, and how long the process took to exit (SIGKILL only after a minute: that would fail the test). */
    private static Duration stop(ServiceProcess service) {
        Process process = service.process();
        long t0 = System.nanoTime();
        process.toHandle().destroy(); // SIGTERM, and the supervisor restarts the service after its exit
        try {
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).as(service.spec().name() + " exits after SIGTERM")
                    .isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
        return Duration.ofNanos(System.nanoTime() - t0);
    }
}
