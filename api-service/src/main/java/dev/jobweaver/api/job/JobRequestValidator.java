package dev.jobweaver.api.job;

import dev.jobweaver.common.job.JobControlRules;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.job.Payloads;
import dev.jobweaver.common.job.StepRules.Limits;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Checks a parsed {@link JobRequest} against the configured bounds and the job-control rules; every violation names
 * its field, e.g. {@code payload.steps[2].durationMs must be between 0 and 60000}.
 *
 * <p>Every step is bounded and so is their number, so a job that passes can never wedge a worker. The payload is
 * checked by {@link Payloads#check} and the job control by {@link JobControlRules}, the rules the scheduler and the
 * worker apply to the events, so that a job accepted here is never quarantined there.
 */
public final class JobRequestValidator {

    /** How many violations one answer lists at most. */
    static final int MAX_REPORTED = 10;

    private static final String JOB_TYPES = Arrays.stream(JobType.values()).map(Enum::name)
            .collect(Collectors.joining(", "));

    /** The bounds configured under {@code jobweaver.api.validation}. */
    public static Limits limitsOf(JobApiConfig.Validation config) {
        return new Limits(config.maxSteps(), config.maxDurationMs(), config.maxLatencyMs(), config.maxIterations(),
                config.maxMessageLength(), config.maxUrlLength(), config.maxRetryCount());
    }

    private final Limits limits;

    public JobRequestValidator(Limits limits) {
        this.limits = limits;
    }

    /**
     * Every rule {@code request} breaks (at most {@value #MAX_REPORTED}) if it is accepted at {@code acceptedAt};
     * empty when it is valid.
     */
    public List<String> violations(JobRequest request, Instant acceptedAt) {
        List<String> out = new ArrayList<>();
        if (request.jobType() == null) {
            out.add("jobType is required; valid values are " + JOB_TYPES);
        }
        if (request.maxRetryCount() != null
                && (request.maxRetryCount() < 0 || request.maxRetryCount() > limits.maxRetryCount())) {
            out.add("maxRetryCount must be between 0 and " + limits.maxRetryCount() + ", got " + request.maxRetryCount());
        }
        boolean startValid = start(request, acceptedAt, out);
        if (request.payload() == null || request.payload().isNull()) {
            out.add(request.jobType() == JobType.HTTP ? "payload is required and must hold at least method and url"
                    : "payload is required and must hold a non-empty steps array");
        } else {
            // without a type, checked as the original API's only one, as JobRequestReader read it
            Payloads.check(request.jobType() == null ? JobType.SIMULATION : request.jobType(), request.payload(),
                    limits, out, MAX_REPORTED);
        }
        if (startValid) {
            JobControlRules.check(request.control(acceptedAt), acceptedAt, out);
        }
        return cap(out);
    }

    /** Checks runAt and delayMs; whether the start they name can be resolved. */
    private static boolean start(JobRequest request, Instant acceptedAt, List<String> out) {
        if (request.runAt() != null && request.delayMs() != null) {
            out.add("runAt and delayMs must not both be given: runAt is an instant, delayMs a delay from acceptance;"
                    + " send one of them");
            return false;
        }
        if (request.delayMs() != null
                && (request.delayMs() < 0 || request.delayMs() > JobControlRules.MAX_DELAY_MS)) {
            out.add("delayMs must be between 0 and " + JobControlRules.MAX_DELAY_MS + " (365 days), got "
                    + request.delayMs());
            return false;
        }
        if (request.runAt() != null) {
            Instant runAt;
            try {
                runAt = request.runAtInstant();
            } catch (DateTimeParseException e) {
                out.add("runAt must be an ISO-8601 instant such as 2030-01-31T09:00:00Z, got '"
                        + (request.runAt().length() > 40 ? request.runAt().substring(0, 40) + "..." : request.runAt())
                        + "'");
                return false;
            }
            if (runAt.isAfter(acceptedAt.plusMillis(JobControlRules.MAX_DELAY_MS))) {
                out.add("runAt must be at most 365 days after now (" + acceptedAt + "), got " + runAt);
                return false;
            }
        }
        return true;
    }

    private static List<String> cap(List<String> out) {
        return out.size() > MAX_REPORTED ? List.copyOf(out.subList(0, MAX_REPORTED)) : List.copyOf(out);
    }
}
