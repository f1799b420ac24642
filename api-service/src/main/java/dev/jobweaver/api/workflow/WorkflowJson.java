package dev.jobweaver.api.workflow;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.jobweaver.api.job.store.JsonColumns;
import dev.jobweaver.common.event.WorkflowProgressEvent;
import java.util.List;

/** How a workflow's nodes, a run's nodes and its input are written to and read from their jsonb columns. */
final class WorkflowJson {

    private static final TypeReference<List<WorkflowDefinition.Node>> NODES = new TypeReference<>() {
    };
    private static final TypeReference<List<WorkflowProgressEvent.Node>> STATES = new TypeReference<>() {
    };

    private WorkflowJson() {
    }

    /** A version's nodes, as {@link JsonColumns#write} wrote them. */
    public static List<WorkflowDefinition.Node> nodes(String json) {
        return JsonColumns.read(json, NODES);
    }

    /** A run's node states, as {@link JsonColumns#write} wrote them. */
    public static List<WorkflowProgressEvent.Node> states(String json) {
        return JsonColumns.read(json, STATES);
    }
}
