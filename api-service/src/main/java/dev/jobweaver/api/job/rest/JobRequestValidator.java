package dev.jobweaver.api.job.rest;

import dev.jobweaver.api.job.config.JobApiConfig;
import dev.jobweaver.common.job.Step;
import java.net.URI;
import java.net.URISyntaxException;
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

    /**
     * The bounds, from {@link JobApiConfig.Validation}.
     *
     * @param maxRetryCount highest accepted {@code maxRetryCount}; the lowest is 0
     */
    public record Limits(int maxSteps, long maxDurationMs, long maxLatencyMs, long maxIterations,
                         int maxMessageLength, int maxUrlLength, int maxRetryCount) {

        /** The defaults of SPEC.md. */
        public static final Limits DEFAULTS = new Limits(100, 60_000, 60_000, 100_000_000, 4096, 2048, 10);

        /** The bounds configured under {@code jobweaver.api.validation}. */
        public static Limits from(JobApiConfig.Validation config) {
            return new Limits(config.maxSteps(), config.maxDurationMs(), config.maxLatencyMs(),
                    config.maxIterations(), config.maxMessageLength(), config.maxUrlLength(),
                    config.maxRetryCount());
        }
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
        List<Step> steps = request.payload().steps();
        if (steps == null) {
            out.add("payload.steps is required and must hold at least one step");
        } else if (steps.isEmpty()) {
            out.add("payload.steps must hold at least one step");
        } else if (steps.size() > limits.maxSteps()) {
            out.add("payload.steps must hold at most " + limits.maxSteps() + " steps, got " + steps.size());
        } else {
            for (int i = 0; i < steps.size() && out.size() < MAX_REPORTED; i++) {
                checkStep("payload.steps[" + i + "]", steps.get(i), out);
            }
        }
        return cap(out);
    }

    private void checkStep(String at, Step step, List<String> out) {
        switch (step) {
            case null -> out.add(at + " must be a step object with an action; valid actions are "
                    + String.join(", ", Step.ACTIONS));
            case Step.Sleep sleep -> range(at + ".durationMs", sleep.durationMs(), limits.maxDurationMs(), out);
            case Step.Log log -> text(at + ".message", log.message(), limits.maxMessageLength(), out);
            case Step.Compute compute -> range(at + ".iterations", compute.iterations(), limits.maxIterations(), out);
            case Step.HttpCall call -> {
                url(at + ".url", call.url(), out);
                range(at + ".latencyMs", call.latencyMs(), limits.maxLatencyMs(), out);
            }
            case Step.Fail fail -> {
                text(at + ".message", fail.message(), limits.maxMessageLength(), out);
                // More failing attempts than a job may ever have would just be a FAIL without `times`.
                int maxAttempts = limits.maxRetryCount() + 1;
                if (fail.times() != null && (fail.times() < 1 || fail.times() > maxAttempts)) {
                    out.add(at + ".times must be between 1 and " + maxAttempts + " (attempts that fail), got "
                            + fail.times());
                }
            }
        }
    }

    private static void range(String field, Long value, long max, List<String> out) {
        if (value == null) {
            out.add(field + " is required (an integer between 0 and " + max + ")");
        } else if (value < 0 || value > max) {
            out.add(field + " must be between 0 and " + max + ", got " + value);
        }
    }

    private static void text(String field, String value, int maxLength, List<String> out) {
        if (value == null || value.isBlank()) {
            out.add(field + " is required and must not be blank");
        } else if (value.length() > maxLength) {
            out.add(field + " must be at most " + maxLength + " characters, got " + value.length());
        }
    }

    private void url(String field, String value, List<String> out) {
        if (value == null || value.isBlank()) {
            out.add(field + " is required (an http or https URL)");
            return;
        }
        if (value.length() > limits.maxUrlLength()) {
            out.add(field + " must be at most " + limits.maxUrlLength() + " characters, got " + value.length());
            return;
        }
        try {
            URI uri = new URI(value);
            String scheme = uri.getScheme();
            if (scheme == null || !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))
                    || uri.getHost() == null) {
                out.add(field + " must be an absolute http or https URL");
            }
        } catch (URISyntaxException e) {
            out.add(field + " must be an absolute http or https URL");
        }
    }

    private static List<String> cap(List<String> out) {
        return out.size() > MAX_REPORTED ? List.copyOf(out.subList(0, MAX_REPORTED)) : List.copyOf(out);
    }
}
