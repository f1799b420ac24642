package dev.jobweaver.sdk;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.UUID;

/**
 * One attempt as a handler sees it.
 *
 * @param attempt 1-based
 * @param traceId the job's trace, for what the handler logs or sends on
 * @param payload the job's payload, read as the handler's record
 * @param deadline when the attempt must have ended
 * @param input the payload's {@code input} (an inbound hook's body, a workflow run's input), or null
 * @param results the payload's {@code results} (a workflow node's dependencies' results by node id), or null
 * @param <P> the handler's payload record
 */
public record RunContext<P>(UUID jobId, int attempt, String traceId, P payload, Deadline deadline, JsonNode input,
                            JsonNode results) {

    /** An attempt whose payload carries no data beside its instructions. */
    public RunContext(UUID jobId, int attempt, String traceId, P payload, Deadline deadline) {
        this(jobId, attempt, traceId, payload, deadline, null, null);
    }

    /** Whether the payload carries {@code input} or {@code results}. */
    public boolean hasData() {
        return input != null || results != null;
    }

    /**
     * {@code {"input": ..., "results": ...}}, each field there when the payload carries it: what a job received from a
     * hook or a workflow run.
     */
    public ObjectNode data() {
        ObjectNode data = JsonNodeFactory.instance.objectNode();
        if (input != null) {
            data.set("input", input);
        }
        if (results != null) {
            data.set("results", results);
        }
        return data;
    }
}
