package dev.jobweaver.api.retention;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import dev.jobweaver.api.platform.http.ApiErrorCode;
import dev.jobweaver.api.platform.http.Body;
import dev.jobweaver.api.platform.http.Expected;
import io.quarkus.runtime.annotations.RegisterForReflection;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The body of {@code PUT /api/tenants/{tenant}/retention}: ISO-8601 durations of at least 10 s; a field left out (or
 * null) is the configured default. Unknown fields are ignored, as for most bodies of the API. Read as text and checked
 * by {@link RetentionPeriods}, so that the refusal names the field and what was wrong with it.
 *
 * @param completedAfter how long the tenant's COMPLETED jobs and workflow runs are kept after they finished
 * @param failedAfter    how long its FAILED, CANCELLED and REJECTED jobs (with their dead letters) and its failed or
 *                       cancelled runs are kept after they finished
 */
@Body(rule = ApiErrorCode.INVALID_RETENTION_REQUEST, example = RetentionRequest.EXAMPLE)
@JsonIgnoreProperties(ignoreUnknown = true)
@Schema(example = RetentionRequest.EXAMPLE)
@RegisterForReflection
public record RetentionRequest(
        @Schema(description = "ISO-8601 duration, at least PT10S; absent: the default (P7D)", example = "PT1M")
        @Expected(RetentionPeriods.EXPECTED) String completedAfter,
        @Schema(description = "ISO-8601 duration, at least PT10S; absent: the default (P30D)", example = "P30D")
        @Expected(RetentionPeriods.EXPECTED) String failedAfter) {

    static final String EXAMPLE = "{\"completedAfter\":\"PT1M\",\"failedAfter\":\"P30D\"}";
}
