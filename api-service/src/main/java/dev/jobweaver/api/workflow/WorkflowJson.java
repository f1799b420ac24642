package dev.jobweaver.api.workflow;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
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

    /** {@code value} as the text of a jsonb column; null stays null. */
    public static String write(Object value) {
        if (value == null) {
            return null;
        }
        try {
            return JsonColumns.mapper().writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("could not write a jsonb column", e);
        }
    }

    /** A version's nodes, as {@link #write} wrote them. */
    public static List<WorkflowDefinition.Node> nodes(String json) {
        return read(json, NODES);
    }

    /** A run's node states, as {@link #write} wrote them. */
    public static List<WorkflowProgressEvent.Node> states(String json) {
        return read(json, STATES);
    }

    /** A JSON column as a tree; null stays null. */
    public static JsonNode tree(String json) {
        if (json == null) {
            return null;
        }
        try {
            return JsonColumns.mapper().readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored JSON column cannot be read: " + e.getOriginalMessage(), e);
        }
    }

    private static <T> T read(String json, TypeReference<T> type) {
        try {
            return JsonColumns.mapper().readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored workflow column cannot be read: " + e.getOriginalMessage(), e);
        }
    }
}
