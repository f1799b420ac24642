package dev.jobweaver.common.job;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * One step of a simulation job; {@code action} is the JSON type discriminator.
 *
 * <p>Numeric fields are boxed so that a missing value reaches validation as {@code null} and can be reported
 * by name, instead of silently becoming 0. An unknown {@code action} fails deserialization.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = Step.DISCRIMINATOR)
@JsonSubTypes({
        @JsonSubTypes.Type(value = Step.Sleep.class, name = "SLEEP"),
        @JsonSubTypes.Type(value = Step.Log.class, name = "LOG"),
        @JsonSubTypes.Type(value = Step.Compute.class, name = "COMPUTE"),
        @JsonSubTypes.Type(value = Step.HttpCall.class, name = "HTTP_CALL"),
        @JsonSubTypes.Type(value = Step.Fail.class, name = "FAIL")
})
@RegisterForReflection
public sealed interface Step {

    /** The JSON property naming the step's kind. */
    String DISCRIMINATOR = "action";

    /** Every accepted value of {@code action}, for error messages. */
    java.util.List<String> ACTIONS = java.util.List.of("SLEEP", "LOG", "COMPUTE", "HTTP_CALL", "FAIL");

    /** Sleeps {@code durationMs}; on a virtual thread this holds no platform thread. */
    @RegisterForReflection
    record Sleep(Long durationMs) implements Step {
    }

    /** Logs {@code message} at INFO with the job's traceId and jobId. */
    @RegisterForReflection
    record Log(String message) implements Step {
    }

    /** Burns CPU: sums over {@code iterations}. */
    @RegisterForReflection
    record Compute(Long iterations) implements Step {
    }

    /** A simulated call: waits {@code latencyMs} and makes no network request; {@code url} is informational. */
    @RegisterForReflection
    record HttpCall(String url, Long latencyMs) implements Step {
    }

    /**
     * Fails the attempt with {@code message}.
     *
     * @param times when given, only the first {@code times} attempts fail and later ones pass this step: a flaky
     *              dependency, for trying retries (and the benchmark's {@code retries} workload); absent, every
     *              attempt fails
     */
    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Fail(String message, Integer times) implements Step {

        /** A step that fails every attempt. */
        public Fail(String message) {
            this(message, null);
        }

        /** Whether this step fails attempt {@code attempt} (1-based). */
        public boolean failsAttempt(int attempt) {
            return times == null || attempt <= times;
        }
    }
}
