package dev.jobweaver.worker.execution.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobweaver.common.job.Results;
import dev.jobweaver.common.job.JobPayload;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.worker.config.WorkerConfig;
import dev.jobweaver.worker.execution.handler.JobFailure;
import dev.jobweaver.worker.execution.handler.JobHandler;
import dev.jobweaver.worker.execution.handler.RunContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;

/**
 * Runs {@link JobType#SIMULATION} jobs: their steps, through the {@link StepExecutor}. Reports no result, unless the
 * payload carries {@code input} or {@code results}: the result is then what the job received.
 */
@ApplicationScoped
public class SimulationHandler implements JobHandler<JobPayload> {

    private final StepExecutor steps;
    private final long computeNanosPerIteration;

    public SimulationHandler(StepExecutor steps, WorkerConfig config) {
        this.steps = steps;
        this.computeNanosPerIteration = config.run().computeNanosPerIteration();
    }

    @Override
    public JobType type() {
        return JobType.SIMULATION;
    }

    @Override
    public Class<JobPayload> payloadType() {
        return JobPayload.class;
    }

    @Override
    public Duration expectedDuration(JobPayload payload) {
        return RunTimeBound.steps(payload.steps(), computeNanosPerIteration);
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
