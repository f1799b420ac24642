package dev.jobweaver.worker.handler.simulation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.common.job.Step;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.worker.handler.RunResult;
import dev.jobweaver.worker.run.RunDispatcher;
import dev.jobweaver.worker.testing.Peak;
import dev.jobweaver.worker.testing.WorkerKafka;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A flood of COMPUTE jobs holds at most the COMPUTE permits, and the other jobs still run meanwhile: a COMPUTE step
 * neither oversubscribes the CPU nor keeps the carrier threads from the runs that only wait.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_worker")
class ComputePermitsFloodTest {

    /**
     * CPU time per COMPUTE job: far longer than a few no-op jobs take, even on a loaded machine (they finish within a
     * second of being sent, and the computes, sharing the cores, take longer than calibrated, not shorter).
     */
    private static final Duration COMPUTE_TIME = Duration.ofSeconds(5);

    @Inject
    ComputePermits permits;

    @Inject
    RunDispatcher dispatcher;

    @Inject
    StepExecutor steps;

    @Test
    void computeStepsNeverExceedThePermitsWhileOtherJobsFlowPastThem() throws Exception {
        await().atMost(Duration.ofSeconds(60)).until(() -> dispatcher.running() == 0);
        long iterations = iterationsFor(COMPUTE_TIME);
        int bound = permits.permits();
        Peak highest = Peak.of(permits::inUse);
        List<UUID> computes = new ArrayList<>();
        List<UUID> others = new ArrayList<>();
        try (highest; WorkerKafka kafka = new WorkerKafka()) {
            for (int i = 0; i < bound; i++) {
                RunJobEvent run = WorkerKafka.run(new Step.Compute(iterations));
                computes.add(run.jobId());
                kafka.send(run, i % 2);
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> permits.inUse() == bound);
            // One more, sent once every permit is taken: it waits for one, so it cannot finish before a long one has,
            // and needs no long computation of its own.
            RunJobEvent oneMore = WorkerKafka.run(new Step.Compute(10L));
            computes.add(oneMore.jobId());
            kafka.send(oneMore, bound % 2);
            await().atMost(Duration.ofSeconds(30)).until(() -> permits.inUse() == bound && permits.waiting() == 1);

            for (int i = 0; i < 4; i++) {
                RunJobEvent run = WorkerKafka.run(new Step.Log("past the flood"), new Step.Sleep(10L));
                others.add(run.jobId());
                kafka.send(run, i % 2);
            }
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> others.stream().allMatch(id -> !kafka.outcomes(id).isEmpty()));
            assertThat(computes).as("no COMPUTE job finished before the other jobs did")
                    .allSatisfy(id -> assertThat(kafka.outcomes(id)).isEmpty());

            await().atMost(Duration.ofSeconds(180))
                    .until(() -> computes.stream().allMatch(id -> !kafka.outcomes(id).isEmpty()));
            assertThat(computes).allSatisfy(id -> assertThat(kafka.outcomes(id).getFirst().topic())
                    .isEqualTo(Topics.JOB_COMPLETED));
        }
        assertThat(highest.highest()).isEqualTo(bound);
        assertThat(permits.inUse()).isZero();
    }

    /** Calibrates COMPUTE on this machine as it is loaded now (which also compiles the loop). */
    private long iterationsFor(Duration wanted) throws Exception {
        long probe = 500_000_000L;
        long started = System.nanoTime();
        assertThat(onVirtualThread(List.of(new Step.Compute(probe)), Duration.ofMinutes(5)).success()).isTrue();
        double nanosPerIteration = Math.max(0.05, (double) (System.nanoTime() - started) / probe);
        return (long) (wanted.toNanos() / nanosPerIteration);
    }

    @Test
    void aComputeStepThatCannotGetAPermitBeforeItsDeadlineFailsTheRun() throws Exception {
        int taken = 0;
        try {
            while (permits.acquire(System.nanoTime() + Duration.ofSeconds(30).toNanos()) && ++taken < permits.permits()) {
                // take every permit, as a flood of long COMPUTE steps would
            }
            RunResult result = onVirtualThread(List.of(new Step.Compute(10L)), Duration.ofMillis(300));

            assertThat(result.success()).isFalse();
            assertThat(result.errorMessage()).isEqualTo("run exceeded its time bound of 300 ms");
        } finally {
            for (int i = 0; i < taken; i++) {
                permits.release();
            }
        }
        assertThat(onVirtualThread(List.of(new Step.Compute(10L)), Duration.ofMillis(300)).success())
                .as("with a permit free again").isTrue();
    }

    /** As a run does (and as other tests count steps: virtual_thread="true" only). */
    private RunResult onVirtualThread(List<Step> run, Duration bound) throws Exception {
        CompletableFuture<RunResult> result = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> result.complete(steps.run(UUID.randomUUID(), 1, run, bound)));
        return result.get(5, TimeUnit.MINUTES);
    }
}
