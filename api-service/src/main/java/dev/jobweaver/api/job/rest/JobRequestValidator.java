package dev.jobweaver.api.job.rest;

import dev.jobweaver.api.job.config.JobApiConfig;
import dev.jobweaver.common.job.StepRules;
import dev.jobweaver.common.job.StepRules.Limits;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks a parsed {@link JobRequest} against the configured bounds; every violation names its field, e.g.
 * {@code payload.steps[2].durationMs must be between 0 and 60000}.
 *
 * <p>Every step is bounded and so is their number, so a job that passes can never wedge a worker.
 */
public final class JobRequestValidator {

    /** How many violations one answer lists at most. */
    static final int MAX_REPORTED = 10;

    /** The bounds configured under {@code jobweaver.api.validation}. */
    public static Limits limitsOf(JobApiConfig.Validation config) {
        return new Limits(config.maxSteps(), config.maxDurationMs(), config.maxLatencyMs(), config.maxIterations(),
                config.maxMessageLength(), config.maxUrlLength(), config.maxRetryCount());
    }

    private final Limits limits;

    public JobRequestValidator(Limits limits) {
        this.limits = limits;
    }

    /** Every rule {@code request} breaks (at most {@value #MAX_REPORTED}); empty when it is valid. */
    public List<String> violations(JobRequest request) {
        List<String> out = new ArrayList<>();
        if (request.jobType() == null) {
            out.add("jobType is required; valid values are SIMULATION");
        }
        if (request.maxRetryCount() != null
                && (request.maxRetryCount() < 0 || request.maxRetryCount() > limits.maxRetryCount())) {
            out.add("maxRetryCount must be between 0 and " + limits.maxRetryCount() + ", got " + request.maxRetryCount());
        }
        if (request.payload() == null) {
            out.add("payload is required and must hold a non-empty steps array");
            return cap(out);
        }
        StepRules.check("payload.steps", request.payload().steps(), limits, out, MAX_REPORTED);
        return cap(out);
    }

    private static List<String> cap(List<String> out) {
        return out.size() > MAX_REPORTED ? List.copyOf(out.subList(0, MAX_REPORTED)) : List.copyOf(out);
    }
}
