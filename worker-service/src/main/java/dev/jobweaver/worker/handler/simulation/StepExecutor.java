package dev.jobweaver.worker.handler.simulation;

import dev.jobweaver.common.job.Step;
import dev.jobweaver.sdk.Deadline;
import dev.jobweaver.worker.handler.RunResult;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.jboss.logging.Logger;
import org.jboss.logging.MDC;

/**
 * Runs a job's steps in order on the calling (virtual) thread, each in its own span of the job's trace; a COMPUTE
 * step's loop runs on a compute thread under a permit ({@link ComputePermits}) while the run's thread waits for it.
 *
 * <p>Every step honours the run's deadline: sleeps and simulated calls wait at most until it, COMPUTE checks it as it
 * loops. An interrupt of the run's thread (a cancel of the job, the deadline's watchdog, shutdown) ends a sleep or a
 * COMPUTE at once and any other step at the boundary: no further step starts. A FAIL step, a step past the deadline, a step that is malformed, or a step that throws anything at all ends
 * the run as failed with the reason; nothing escapes to the caller.
 */
@ApplicationScoped
public class StepExecutor {

    private static final Logger LOG = Logger.getLogger(StepExecutor.class);
    /**
     * Where LOG steps write, apart from the worker's own lines, so that an operator can route or silence what jobs
     * say ({@code quarkus.log.category."jobweaver.job".level=WARN}) without touching the worker's logging.
     */
    static final String JOB_LOG_CATEGORY = "jobweaver.job";
    private static final Logger JOB_LOG = Logger.getLogger(JOB_LOG_CATEGORY);
    /** COMPUTE looks at the clock and the interrupt flag once per this many iterations. */
    private static final long COMPUTE_CHECK_EVERY = 1 << 20;

    @Inject Tracer tracer;
    @Inject MeterRegistry registry;
    @Inject ComputePermits computePermits;
    /** Meters are looked up once, not built and registered again for every step. */
    private final Map<String, Counter> stepCounters = new ConcurrentHashMap<>();
    /** Keeps COMPUTE's sum observable so that the loop is not optimised away. */
    private volatile long computeSink;

    /**
     * Runs {@code steps} of attempt {@code attempt} (1-based) of job {@code jobId}; a run not finished by
     * {@code bound} from now fails.
     */
    public RunResult run(UUID jobId, int attempt, List<Step> steps, Duration bound) {
        return run(jobId, attempt, steps, Deadline.in(bound, false));
    }

    /**
     * Runs {@code steps} of attempt {@code attempt} (1-based) of job {@code jobId}; a run not finished by
     * {@code until} fails with {@link Deadline#exceeded()}.
     */
    public RunResult run(UUID jobId, int attempt, List<Step> steps, Deadline until) {
        long deadline = until.nanoTime();
        for (int i = 0; i < steps.size(); i++) {
            if (Thread.currentThread().isInterrupted()) {
                // A cancel, the deadline or shutdown interrupted a step that does not wait (LOG, a passing FAIL):
                // the next step does not start. The flag stays for the caller, which names the reason.
                return RunResult.workerStopped();
            }
            Step step = steps.get(i);
            String action = action(step);
            Span span = tracer.spanBuilder("step " + (i + 1) + " " + action)
                    .setAttribute("jobweaver.job.id", jobId.toString())
                    .setAttribute("jobweaver.step.index", i + 1)
                    .setAttribute("jobweaver.step.action", action)
                    .setAttribute("thread.name", Thread.currentThread().getName())
                    .setAttribute("jobweaver.step.virtual_thread", Thread.currentThread().isVirtual())
                    .startSpan();
            try (Scope ignored = span.makeCurrent()) {
                MDC.put("spanId", span.getSpanContext().getSpanId());
                stepCounter(action, Thread.currentThread().isVirtual()).increment();
                execute(step, i + 1, attempt, deadline, until);
            } catch (StepFailure failure) {
                span.setStatus(StatusCode.ERROR, failure.getMessage());
                return RunResult.failed(failure.getMessage());
            } catch (InterruptedException interrupted) {
                // Shutdown (after its grace period) or the run's deadline: the caller, which knows which, names it.
                Thread.currentThread().interrupt();
                span.setStatus(StatusCode.ERROR, RunResult.WORKER_STOPPED_MESSAGE);
                return RunResult.workerStopped();
            } catch (Throwable unexpected) {
                span.recordException(unexpected);
                String reason = "step " + (i + 1) + " (" + action + ") failed unexpectedly: " + unexpected;
                span.setStatus(StatusCode.ERROR, reason);
                LOG.warnf(unexpected, "%s", reason);
                return RunResult.failed(reason);
            } finally {
                MDC.remove("spanId");
                span.end();
            }
        }
        return RunResult.succeeded();
    }

    private Counter stepCounter(String action, boolean virtual) {
        return stepCounters.computeIfAbsent(action + (virtual ? "/virtual" : "/platform"),
                key -> Counter.builder("jobweaver.worker.steps")
                        .description("Steps run, by action and by whether they ran on a virtual thread")
                        .tags("action", action, "virtual_thread", Boolean.toString(virtual))
                        .register(registry));
    }

    private void execute(Step step, int index, int attempt, long deadline, Deadline bound)
            throws StepFailure, InterruptedException {
        switch (step) {
            case Step.Sleep s -> pause(required(s.durationMs(), "durationMs", index), deadline, bound);
            // The message as the job gave it, not a format: no String.format per step (2% of a burst's CPU).
            case Step.Log l -> JOB_LOG.info(l.message() == null ? "" : l.message());
            case Step.Compute c -> compute(required(c.iterations(), "iterations", index), deadline, bound);
            case Step.HttpCall h -> {
                LOG.debugf("simulated call to %s", h.url());
                pause(required(h.latencyMs(), "latencyMs", index), deadline, bound);
            }
            case Step.Fail f when !f.failsAttempt(attempt) ->
                    LOG.infof("step %d (FAIL) passes: it fails only the first %d attempt(s), this is attempt %d",
                            index, f.times(), attempt);
            case Step.Fail f -> throw new StepFailure(f.message() == null || f.message().isBlank()
                    ? "step " + index + " (FAIL) failed the attempt" : f.message());
            case null -> throw new StepFailure("step " + index + " is empty");
        }
    }

    private static void pause(long millis, long deadline, Deadline bound) throws StepFailure, InterruptedException {
        long wanted = System.nanoTime() + millis * 1_000_000;
        if (wanted - deadline > 0) {
            sleepUntil(deadline);
            throw overBound(bound);
        }
        sleepUntil(wanted);
    }

    private static void sleepUntil(long nanoTime) throws InterruptedException {
        long left = nanoTime - System.nanoTime();
        if (left > 0) {
            Thread.sleep(Duration.ofNanos(left));
        }
    }

    private void compute(long iterations, long deadline, Deadline bound) throws StepFailure, InterruptedException {
        if (!computePermits.acquire(deadline)) {
            throw overBound(bound);
        }
        try {
            // On a platform thread (ComputePermits says why); the loop honours the deadline itself.
            Future<Long> loop = computePermits.submit(() -> sum(iterations, deadline, bound));
            try {
                computeSink = loop.get();
            } catch (InterruptedException interrupted) {
                loop.cancel(true); // the loop sees the interrupt at its next check
                throw interrupted;
            } catch (ExecutionException e) {
                if (e.getCause() instanceof StepFailure failure) {
                    throw failure;
                }
                throw new IllegalStateException(e.getCause());
            }
        } finally {
            computePermits.release();
        }
        LOG.debugf("computed %d over %d iterations", computeSink, iterations);
    }

    private static long required(Long value, String field, int index) throws StepFailure {
        if (value == null || value < 0) {
            throw new StepFailure("step " + index + " has no valid " + field + ": " + value);
        }
        return value;
    }

    private static long sum(long iterations, long deadline, Deadline bound) throws StepFailure {
        long sum = 0;
        for (long i = 0; i < iterations; i++) {
            sum += i;
            if ((i & (COMPUTE_CHECK_EVERY - 1)) == 0 && i > 0) {
                if (System.nanoTime() - deadline > 0) {
                    throw overBound(bound);
                }
                if (Thread.currentThread().isInterrupted()) {
                    throw new StepFailure("run interrupted during COMPUTE");
                }
            }
        }
        return sum;
    }

    private static StepFailure overBound(Deadline bound) {
        return new StepFailure(bound.exceeded());
    }

    private static String action(Step step) {
        return switch (step) {
            case Step.Sleep ignored -> "SLEEP";
            case Step.Log ignored -> "LOG";
            case Step.Compute ignored -> "COMPUTE";
            case Step.HttpCall ignored -> "HTTP_CALL";
            case Step.Fail ignored -> "FAIL";
            case null -> "NONE";
        };
    }
}
