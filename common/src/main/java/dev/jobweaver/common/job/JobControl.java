package dev.jobweaver.common.job;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * How a job is to be run, beyond what it does: carried from the API to the scheduler and the worker on every event
 * about the job. Every component is optional; an event written before these existed has none, and reads as
 * {@link #DEFAULTS}.
 *
 * @param priority the dispatch level; null means {@link Priority#NORMAL}
 * @param runAt the earliest start; null means at once (the API turns {@code delayMs} into this)
 * @param timeoutMs the longest an attempt may run before it fails with {@code WORKER.TIMEOUT}; null means the
 *                  worker's own bound for the job
 * @param retryDelaysMs the delay before each retry: retry n waits entry min(n, last); null means exponential backoff
 * @param tenant the owner; null means {@value #DEFAULT_TENANT}
 * @param labels free string pairs, filterable in the API; null means none
 * @param queue the queue whose workers run the job; null means {@value #DEFAULT_QUEUE}
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record JobControl(
        Priority priority,
        Instant runAt,
        Long timeoutMs,
        List<Long> retryDelaysMs,
        String tenant,
        Map<String, String> labels,
        String queue) {

    /** The tenant of a job that names none. */
    public static final String DEFAULT_TENANT = "default";
    /** The queue of a job that names none. */
    public static final String DEFAULT_QUEUE = "default";

    /** A job that asks for nothing special. */
    public static final JobControl DEFAULTS = new JobControl(null, null, null, null, null, null, null);

    /** Job control on the default queue. */
    public JobControl(Priority priority, Instant runAt, Long timeoutMs, List<Long> retryDelaysMs, String tenant,
                      Map<String, String> labels) {
        this(priority, runAt, timeoutMs, retryDelaysMs, tenant, labels, null);
    }

    /** {@code control}, or {@link #DEFAULTS} when absent (an event from before job control). */
    public static JobControl orDefaults(JobControl control) {
        return control == null ? DEFAULTS : control;
    }

    /**
     * {@code control} (null reads as {@link #DEFAULTS}) with {@code priority} where it names none. NORMAL, which is
     * what no priority means, leaves it as it is, so that a job of the default level is written as it always was.
     */
    public static JobControl withDefaultPriority(JobControl control, Priority priority) {
        if (priority == Priority.NORMAL || (control != null && control.priority() != null)) {
            return control;
        }
        JobControl base = orDefaults(control);
        return new JobControl(priority, base.runAt(), base.timeoutMs(), base.retryDelaysMs(), base.tenant(),
                base.labels(), base.queue());
    }

    /** The priority, {@link Priority#NORMAL} when unset. */
    public Priority priorityOrDefault() {
        return priority == null ? Priority.NORMAL : priority;
    }

    /** The tenant, {@value #DEFAULT_TENANT} when unset. */
    public String tenantOrDefault() {
        return tenant == null ? DEFAULT_TENANT : tenant;
    }

    /** The queue, {@value #DEFAULT_QUEUE} when unset. */
    public String queueOrDefault() {
        return queue == null ? DEFAULT_QUEUE : queue;
    }

    /** The labels, empty when unset. */
    public Map<String, String> labelsOrEmpty() {
        return labels == null ? Map.of() : labels;
    }

    /** The delay before retry {@code n} (1-based) in ms, or null when the exponential backoff applies. */
    public Long retryDelayMs(int n) {
        if (retryDelaysMs == null || retryDelaysMs.isEmpty()) {
            return null;
        }
        return retryDelaysMs.get(Math.min(Math.max(n, 1), retryDelaysMs.size()) - 1);
    }
}
