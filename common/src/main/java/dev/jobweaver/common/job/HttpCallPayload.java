package dev.jobweaver.common.job;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;
import java.util.Map;

/**
 * The payload of an {@link JobType#HTTP} job: one outbound request, made by the worker. Its response status and a
 * bounded part of its body are the job's result.
 *
 * @param method an HTTP method, required (GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS)
 * @param url an absolute http or https URL, required; the worker refuses destinations its configuration does not allow
 * @param headers request headers; null means none
 * @param body the request body; null means none
 * @param expectedStatus the statuses that count as success; null means any 2xx
 * @param timeoutMs the request's own timeout; null means the worker's default
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record HttpCallPayload(
        String method,
        String url,
        Map<String, String> headers,
        String body,
        List<Integer> expectedStatus,
        Long timeoutMs) {
}
