package dev.jobweaver.api.tenant.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.web.rest.ApiException;
import dev.jobweaver.common.error.ApiErrorCode;
import dev.jobweaver.common.event.TenantLimitEvent;
import java.io.IOException;

/**
 * Reads the body of {@code PUT /api/tenants/{tenant}/limits} into its {@code maxRunning}, or a 400 naming the field:
 * {@code API.MALFORMED_JSON} for a body that is not JSON or a value of the wrong type (as for jobs and schedules),
 * {@code API.INVALID_TENANT_LIMIT_REQUEST} for a broken rule.
 *
 * <p>Strict as the job reader: no coercion of a string or a decimal to an integer, no trailing data, no duplicate key;
 * unknown properties are ignored, as everywhere in the API.
 */
final class TenantLimitRequestReader {

    private final ObjectMapper strict;

    TenantLimitRequestReader(ObjectMapper base) {
        ObjectMapper strict = base.copy();
        strict.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        strict.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION.mappedFeature());
        this.strict = strict;
    }

    /** The body's {@code maxRunning}, 1 to {@value TenantLimitEvent#MAX_RUNNING}, or an {@link ApiException}. */
    int read(byte[] body) {
        if (body == null || body.length == 0) {
            throw malformed("request body is empty; expected a JSON object such as {\"maxRunning\":10}");
        }
        JsonNode root;
        try {
            root = strict.readTree(body);
        } catch (JsonProcessingException e) {
            throw malformed("request body is not valid JSON: " + e.getOriginalMessage() + (e.getLocation() == null ? ""
                    : " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")"));
        } catch (IOException e) {
            throw malformed("request body could not be read: " + e.getMessage());
        }
        if (root == null || root.isMissingNode()) {
            throw malformed("request body is empty; expected a JSON object such as {\"maxRunning\":10}");
        }
        if (!root.isObject()) {
            throw malformed("request body must be a JSON object such as {\"maxRunning\":10}, got " + describe(root));
        }
        JsonNode node = root.get("maxRunning");
        if (node == null || node.isNull()) {
            throw invalid("maxRunning is required (an integer from 1 to " + TenantLimitEvent.MAX_RUNNING + ")");
        }
        if (!node.isIntegralNumber()) {
            throw malformed("maxRunning must be an integer from 1 to " + TenantLimitEvent.MAX_RUNNING + ", got "
                    + describe(node));
        }
        // canConvertToLong: a number beyond a long is out of range too, never an overflow
        if (!node.canConvertToLong() || node.longValue() < 1 || node.longValue() > TenantLimitEvent.MAX_RUNNING) {
            throw invalid("maxRunning must be between 1 and " + TenantLimitEvent.MAX_RUNNING + ", got "
                    + node.asText());
        }
        return node.intValue();
    }

    private static String describe(JsonNode node) {
        return switch (node.getNodeType()) {
            case STRING -> "a string";
            case NUMBER -> node.isIntegralNumber() ? "an integer" : "a decimal number";
            case BOOLEAN -> "a boolean";
            case OBJECT, POJO -> "an object";
            case ARRAY -> "an array";
            case NULL, MISSING -> "null";
            case BINARY -> "binary data";
        };
    }

    private static ApiException malformed(String message) {
        return new ApiException(ApiErrorCode.MALFORMED_JSON, message);
    }

    private static ApiException invalid(String message) {
        return new ApiException(ApiErrorCode.INVALID_TENANT_LIMIT_REQUEST, message);
    }
}
