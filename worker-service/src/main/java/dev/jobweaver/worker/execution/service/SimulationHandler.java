package dev.jobweaver.worker.execution.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.common.job.JobPayload;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.worker.config.WorkerConfig;
import dev.jobweaver.worker.execution.handler.JobFailure;
import dev.jobweaver.worker.execution.handler.JobHandler;
import dev.jobweaver.worker.execution.handler.RunContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;

/** Runs {@link JobType#SIMULATION} jobs: their steps, through the {@link StepExecutor}; reports no result. */
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
        return null;
    }
}
