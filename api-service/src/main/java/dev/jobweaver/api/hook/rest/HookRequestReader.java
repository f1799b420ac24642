package dev.jobweaver.api.hook.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobweaver.api.hook.service.HookDefinition;
import dev.jobweaver.api.hook.service.HookTarget;
import dev.jobweaver.api.job.persistence.JsonColumns;
import dev.jobweaver.api.job.rest.JobRequest;
import dev.jobweaver.api.job.rest.JobRequestReader;
import dev.jobweaver.api.job.rest.JobRequestValidator;
import dev.jobweaver.api.web.rest.ApiException;
import dev.jobweaver.api.web.rest.UuidText;
import dev.jobweaver.common.error.ApiErrorCode;
import dev.jobweaver.common.job.JobControl;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Reads a {@code POST /api/hooks} body strictly: a name and exactly one target, a {@code job} (checked exactly as
 * {@code POST /api/jobs} checks a body, by {@link JobRequestReader} and {@link JobRequestValidator}, its problems named
 * under {@code job.}) or a {@code workflowId}. Wrong types, trailing data and duplicate keys are 400
 * {@code API.MALFORMED_JSON}; broken rules 400 {@code API.INVALID_HOOK_REQUEST}, each naming its field. Unknown
 * properties are ignored. Whether a workflow exists is the resource's question, not the reader's.
 */
final class HookRequestReader {

    /** The longest name ({@code hooks.name}). */
    static final int MAX_NAME_LENGTH = 200;


    private final ObjectMapper strict;
    private final JobRequestReader jobs;
    private final JobRequestValidator validator;
    private final int defaultRetryCount;

    HookRequestReader(ObjectMapper base, JobRequestValidator validator, int defaultRetryCount) {
        ObjectMapper strict = base.copy();
        strict.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        strict.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION.mappedFeature());
        this.strict = strict;
        this.jobs = new JobRequestReader(base);
        this.validator = validator;
        this.defaultRetryCount = defaultRetryCount;
    }

    /** The definition in {@code body}, valid at {@code now}, or an {@link ApiException} naming what is wrong. */
    HookDefinition read(byte[] body, Instant now) {
        return read(body, now, JobControl.DEFAULT_TENANT);
    }

    /**
     * The definition in {@code body}, valid at {@code now}, or an {@link ApiException} naming what is wrong; a job's tenant
     * {@code ownTenant} (the caller's) when the body names none; a workflow's hook takes its workflow's, which the
     * resource reads.
     */
    HookDefinition read(byte[] body, Instant now, String ownTenant) {
        if (body == null || body.length == 0) {
            throw malformed("request body is empty; expected a JSON object such as {\"name\":\"deploy\","
                    + "\"job\":{...}} or {\"name\":\"deploy\",\"workflowId\":\"...\"}");
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
            throw malformed("request body is empty");
        }
        if (!root.isObject()) {
            throw malformed("request body must be a JSON object, got " + describe(root));
        }
        String name = text(root, "name");
        String workflowText = text(root, "workflowId");
        JsonNode job = root.get("job");
        if (job != null && !job.isNull() && !job.isObject()) {
            throw malformed("job must be an object (a POST /api/jobs body), got " + describe(job));
        }
        // parsed before the rules are checked: a wrong type in the job is a malformed request, as for jobs
        JobRequest request = job == null || job.isNull() ? null : jobRequest(job);

        List<String> out = new ArrayList<>();
        if (name == null || name.isBlank()) {
            out.add("name is required (1 to " + MAX_NAME_LENGTH + " characters)");
        } else if (name.length() > MAX_NAME_LENGTH) {
            out.add("name must be at most " + MAX_NAME_LENGTH + " characters, got " + name.length());
        }
        UUID workflowId = null;
        if (request != null && workflowText != null) {
            out.add("exactly one of job and workflowId is required, got both");
        } else if (request == null && workflowText == null) {
            out.add("exactly one of job and workflowId is required, got none: job is the job each call makes (a POST"
                    + " /api/jobs body), workflowId the workflow each call starts");
        } else if (workflowText != null) {
            if (UuidText.matches(workflowText)) {
                workflowId = UUID.fromString(workflowText);
            } else {
                out.add("workflowId must be a UUID such as 3fa85f64-5717-4562-b3fc-2c963f66afa6, got '"
                        + cut(workflowText) + "'");
            }
        }
        if (request != null) {
            validator.violations(request, now).forEach(violation -> out.add("job." + violation));
            if (request.runAt() != null) {
                out.add("job.runAt is not allowed in a hook: each call's job starts when it is called; use job.delayMs"
                        + " to start it later than its call");
            }
        }
        if (!out.isEmpty()) {
            throw new ApiException(ApiErrorCode.INVALID_HOOK_REQUEST, String.join("; ", out));
        }
        if (request == null) {
            return new HookDefinition(name, JobControl.DEFAULT_TENANT, new HookTarget.Workflow(workflowId));
        }
        String tenant = request.tenant() == null ? ownTenant : request.tenant();
        return new HookDefinition(name, tenant, new HookTarget.Job(template(request, tenant)));
    }

    /** The job read as a submission body; its messages name fields under {@code job.}. */
    private JobRequest jobRequest(JsonNode job) {
        try {
            return jobs.readMember(job, "job");
        } catch (ApiException e) {
            if (e.code() == ApiErrorCode.INVALID_JOB_REQUEST) {
                throw new ApiException(ApiErrorCode.INVALID_HOOK_REQUEST, e.getMessage());
            }
            throw e;
        }
    }

    /**
     * The job template as stored: the request as the reader normalised it, its retries made explicit (a later change of
     * the service's default must not change what a hook makes), {@code tenant} when it is not the default, without the
     * fields it does not give.
     */
    private String template(JobRequest request, String tenant) {
        ObjectNode tree = JsonColumns.mapper().valueToTree(request);
        List<String> absent = new ArrayList<>();
        tree.properties().forEach(field -> {
            if (field.getValue().isNull()) {
                absent.add(field.getKey());
            }
        });
        absent.forEach(tree::remove);
        if (request.maxRetryCount() == null) {
            tree.put("maxRetryCount", defaultRetryCount);
        }
        // the caller's own tenant when the body named none: every call's job is made in it
        if (request.tenant() == null && !JobControl.DEFAULT_TENANT.equals(tenant)) {
            tree.put("tenant", tenant);
        }
        try {
            return JsonColumns.mapper().writeValueAsString(tree);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("could not write a job template", e);
        }
    }

    /** A string member, null when absent or null; a 400 when it is not a string or holds a NUL character. */
    private static String text(JsonNode root, String field) {
        JsonNode node = root.get(field);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isTextual()) {
            throw malformed(field + " must be a string, got " + describe(node));
        }
        String value = node.textValue();
        if (value.indexOf(0) >= 0) {
            // PostgreSQL stores NUL in no text column
            throw new ApiException(ApiErrorCode.INVALID_HOOK_REQUEST, field + " must not contain the NUL character");
        }
        return value;
    }

    static String describe(JsonNode node) {
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

    private static String cut(String value) {
        return value.length() > 40 ? value.substring(0, 40) + "..." : value;
    }

    private static ApiException malformed(String message) {
        return new ApiException(ApiErrorCode.MALFORMED_JSON, message);
    }
}
