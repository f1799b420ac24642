package dev.jobweaver.api.tenant;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import dev.jobweaver.api.platform.http.ApiErrorCode;
import dev.jobweaver.api.platform.http.Body;
import dev.jobweaver.api.platform.http.Expected;
import dev.jobweaver.common.event.TenantLimitEvent;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.NotNull;
import java.math.BigInteger;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.hibernate.validator.constraints.Range;

/**
 * The body of {@code PUT /api/tenants/{tenant}/limits}. Unknown fields are ignored, as for most bodies of the API.
 *
 * @param maxRunning at most this many of the tenant's jobs run at once; a {@link BigInteger} so that a number beyond
 *                   any integer type is refused as out of range, as a smaller one is, rather than as unreadable
 */
@Body(rule = ApiErrorCode.INVALID_TENANT_LIMIT_REQUEST, example = TenantLimitRequest.EXAMPLE)
@JsonIgnoreProperties(ignoreUnknown = true)
@Schema(example = TenantLimitRequest.EXAMPLE)
@RegisterForReflection
public record TenantLimitRequest(
        @Schema(required = true, minimum = "1", maximum = "" + TenantLimitEvent.MAX_RUNNING)
        @Expected("an integer from 1 to " + TenantLimitEvent.MAX_RUNNING)
        @NotNull(message = "is required (an integer from 1 to " + TenantLimitEvent.MAX_RUNNING + ")")
        @Range(min = 1, max = TenantLimitEvent.MAX_RUNNING, message = "must be between {min} and {max}, got ${validatedValue}")
        BigInteger maxRunning) {

    static final String EXAMPLE = "{\"maxRunning\":10}";
}
