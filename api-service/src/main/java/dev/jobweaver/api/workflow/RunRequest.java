package dev.jobweaver.api.workflow;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.api.platform.http.ApiErrorCode;
import dev.jobweaver.api.platform.http.Body;
import io.quarkus.runtime.annotations.RegisterForReflection;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The body of {@code POST /api/workflows/{id}/runs}, which is optional. Unknown fields are ignored.
 *
 * @param input any JSON, which every node's job gets as {@code payload.input}
 */
@Body(rule = ApiErrorCode.INVALID_WORKFLOW_REQUEST, example = RunRequest.EXAMPLE)
@JsonIgnoreProperties(ignoreUnknown = true)
@Schema(example = "{\"input\":{\"date\":\"2026-11-26\"}}")
@RegisterForReflection
public record RunRequest(@Schema(type = SchemaType.OBJECT, description = "any JSON") JsonNode input) {

    static final String EXAMPLE = "{\"input\":{...}}";

    /** The input, null when the body gives none or a JSON null. */
    JsonNode given() {
        return input == null || input.isNull() ? null : input;
    }
}
