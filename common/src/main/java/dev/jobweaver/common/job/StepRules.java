package dev.jobweaver.common.job;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;

/**
 * The rules a job's steps must keep, shared by the API (which answers 400 naming the field) and every consumer of an
 * event that carries steps (which quarantines the record), so that a job that breaks them never reaches a worker.
 * Every violation names its field, e.g. {@code payload.steps[2].durationMs must be between 0 and 60000, got -1}.
 */
public final class StepRules {

    /**
     * The bounds a job must keep.
     *
     * @param maxRetryCount highest accepted {@code maxRetryCount}; the lowest is 0
     */
    public record Limits(int maxSteps, long maxDurationMs, long maxLatencyMs, long maxIterations,
                         int maxMessageLength, int maxUrlLength, int maxRetryCount) {

        /** The API's defaults. */
        public static final Limits DEFAULTS = new Limits(100, 60_000, 60_000, 100_000_000, 4096, 2048, 10);

        /**
         * The highest bounds the API may be configured with, and what the consumers check events against: an event
         * beyond them can only come from something other than the API, and a job within them still ends within a day.
         */
        public static final Limits CEILINGS = new Limits(1000, 3_600_000, 3_600_000, 100_000_000_000L, 65_536, 8192,
                100);

        /** The names of the bounds, in the order of {@link #bounds()}. */
        private static final List<String> NAMES = List.of("max-steps", "max-duration-ms", "max-latency-ms",
                "max-iterations", "max-message-length", "max-url-length", "max-retry-count");

        /** The first bound of this that exceeds {@code ceiling}, named, or null if none does. */
        public String exceeding(Limits ceiling) {
            long[] mine = bounds();
            long[] max = ceiling.bounds();
            for (int i = 0; i < mine.length; i++) {
                if (mine[i] > max[i]) {
                    return NAMES.get(i) + " " + mine[i] + " is above " + max[i];
                }
            }
            return null;
        }

        private long[] bounds() {
            return new long[] {maxSteps, maxDurationMs, maxLatencyMs, maxIterations, maxMessageLength, maxUrlLength,
                    maxRetryCount};
        }
    }

    private StepRules() {
    }

    /**
     * Adds to {@code out} what {@code steps} breaks, stopping once {@code out} holds {@code maxReported} entries.
     *
     * @param at the steps' path, e.g. {@code payload.steps}
     */
    public static void check(String at, List<Step> steps, Limits limits, List<String> out, int maxReported) {
        if (steps == null) {
            out.add(at + " is required and must hold at least one step");
        } else if (steps.isEmpty()) {
            out.add(at + " must hold at least one step");
        } else if (steps.size() > limits.maxSteps()) {
            out.add(at + " must hold at most " + limits.maxSteps() + " steps, got " + steps.size());
        } else {
            for (int i = 0; i < steps.size() && out.size() < maxReported; i++) {
                checkStep(at + "[" + i + "]", steps.get(i), limits, out);
            }
        }
    }

    private static void checkStep(String at, Step step, Limits limits, List<String> out) {
        switch (step) {
            case null -> out.add(at + " must be a step object with an action; valid actions are "
                    + String.join(", ", Step.ACTIONS));
            case Step.Sleep sleep -> range(at + ".durationMs", sleep.durationMs(), limits.maxDurationMs(), out);
            case Step.Log log -> text(at + ".message", log.message(), limits.maxMessageLength(), out);
            case Step.Compute compute -> range(at + ".iterations", compute.iterations(), limits.maxIterations(), out);
            case Step.HttpCall call -> {
                url(at + ".url", call.url(), limits.maxUrlLength(), out);
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
        } else if (value.indexOf('\u0000') >= 0) {
            out.add(field + " must not contain the NUL character (U+0000)");
        }
    }

    /** Whether {@code value} holds U+0000, which PostgreSQL stores in neither text nor jsonb. */
    public static boolean hasNul(String value) {
        return value != null && value.indexOf('\u0000') >= 0;
    }

    static void url(String field, String value, int maxLength, List<String> out) {
        if (value == null || value.isBlank()) {
            out.add(field + " is required (an http or https URL)");
            return;
        }
        if (value.length() > maxLength) {
            out.add(field + " must be at most " + maxLength + " characters, got " + value.length());
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
}
