package dev.jobweaver.worker.handler.simulation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobweaver.common.job.Results;
import dev.jobweaver.common.job.JobPayload;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.job.Step;
import dev.jobweaver.worker.WorkerConfig;
import dev.jobweaver.sdk.JobFailure;
import dev.jobweaver.sdk.JobHandler;
import dev.jobweaver.sdk.RunContext;
import dev.jobweaver.worker.handler.RunResult;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.List;

/**
 * Runs {@link JobType#SIMULATION} jobs: their steps, through the {@link StepExecutor}. Reports no result, unless the
 * payload carries {@code input} or {@code results}: the result is then what the job received.
 */
@ApplicationScoped
class SimulationHandler implements JobHandler<JobPayload> {

    private final StepExecutor steps;
    private final long computeNanosPerIteration;

    public SimulationHandler(StepExecutor steps, WorkerConfig config) {
        this.steps = steps;
        this.computeNanosPerIteration = config.run().computeNanosPerIteration();
    }

    @Override
    public String type() {
        return JobType.SIMULATION.name();
    }

    @Override
    public Class<JobPayload> payloadType() {
        return JobPayload.class;
    }

    @Override
    public Duration expectedDuration(JobPayload payload) {
        return stepsDuration(payload.steps(), computeNanosPerIteration);
    }

    @Override
    public JsonNode run(RunContext<JobPayload> run) throws JobFailure {
        RunResult result = steps.run(run.jobId(), run.attempt(), run.payload().steps(), run.deadline());
        if (!result.success()) {
            throw new JobFailure(result.errorMessage());
        }
        return run.hasData() ? received(run) : null;
    }

    /**
     * How long {@code steps} take by their own description: their sleeps and latencies plus
     * {@code computeNanosPerIteration} per COMPUTE iteration; ArithmeticException if that overflows.
     */
    static Duration stepsDuration(List<Step> steps, long computeNanosPerIteration) {
        long millis = 0;
        long computeNanos = 0;
        for (Step step : steps == null ? List.<Step>of() : steps) {
            switch (step) {
                case Step.Sleep s -> millis = Math.addExact(millis, positive(s.durationMs()));
                case Step.HttpCall h -> millis = Math.addExact(millis, positive(h.latencyMs()));
                case Step.Compute c -> computeNanos = Math.addExact(computeNanos,
                        Math.multiplyExact(positive(c.iterations()), computeNanosPerIteration));
                case null, default -> {
                }
            }
        }
        return Duration.ofMillis(millis).plusNanos(computeNanos);
    }

    private static long positive(Long value) {
        return value == null || value < 0 ? 0 : value;
    }

    /**
     * What the job received, as its result, so that a workflow node's result shows its input and its dependencies'
     * results: {@code {"input": ..., "results": ...}}. Beyond {@link Results#MAX_BYTES} the results are left out
     * ({@code "resultsOmitted": true}), then the input too ({@code "inputOmitted": true}).
     */
    static JsonNode received(RunContext<?> run) {
        ObjectNode all = run.data();
        if (!Results.tooLarge(all)) {
            return all;
        }
        ObjectNode withoutResults = JsonNodeFactory.instance.objectNode();
        if (run.input() != null) {
            withoutResults.set("input", run.input());
        }
        withoutResults.put("resultsOmitted", run.results() != null);
        if (!Results.tooLarge(withoutResults)) {
            return withoutResults;
        }
        return JsonNodeFactory.instance.objectNode().put("inputOmitted", true)
                .put("resultsOmitted", run.results() != null);
    }
}
