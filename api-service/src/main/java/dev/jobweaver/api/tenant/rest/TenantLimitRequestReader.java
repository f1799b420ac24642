package dev.jobweaver.api.tenant.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.web.rest.ApiException;
import dev.jobweaver.api.web.rest.JsonBody;
import dev.jobweaver.common.error.ApiErrorCode;
import dev.jobweaver.common.event.TenantLimitEvent;

/**
 * Reads the body of {@code PUT /api/tenants/{tenant}/limits} into its {@code maxRunning}, or a 400 naming the field:
 * {@code API.MALFORMED_JSON} for a body that is not JSON or a value of the wrong type (as for jobs and schedules),
 * {@code API.INVALID_TENANT_LIMIT_REQUEST} for a broken rule.
 *
 * <p>Strict as the job reader: no coercion of a string or a decimal to an integer, no trailing data, no duplicate key;
 * unknown properties are ignored, as everywhere in the API.
 */
final class TenantLimitRequestReader {

    private static final String EXAMPLE = "{\"maxRunning\":10}";
    private static final int MAX = TenantLimitEvent.MAX_RUNNING;

    private final JsonBody json;

    TenantLimitRequestReader(ObjectMapper base) {
        this.json = new JsonBody(base);
    }

    /** The body's {@code maxRunning}, 1 to {@value TenantLimitEvent#MAX_RUNNING}, or an {@link ApiException}. */
    int read(byte[] body) {
        JsonNode root = json.parseObject(body, EXAMPLE);
        Integer maxRunning = JsonBody.integer(root, "maxRunning", "an integer from 1 to " + MAX, 1, MAX,
                ApiErrorCode.INVALID_TENANT_LIMIT_REQUEST);
        if (maxRunning == null) {
            throw new ApiException(ApiErrorCode.INVALID_TENANT_LIMIT_REQUEST,
                    "maxRunning is required (an integer from 1 to " + MAX + ")");
        }
        return maxRunning;
    }
}
