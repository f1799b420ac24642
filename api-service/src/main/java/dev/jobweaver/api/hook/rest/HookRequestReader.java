package dev.jobweaver.api.hook.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.hook.service.HookDefinition;
import dev.jobweaver.api.hook.service.HookTarget;
import dev.jobweaver.api.job.rest.JobRequest;
import dev.jobweaver.api.job.rest.JobRequestReader;
import dev.jobweaver.api.job.rest.JobRequestValidator;
import dev.jobweaver.api.web.rest.ApiException;
import dev.jobweaver.api.web.rest.JsonBody;
import dev.jobweaver.common.error.ApiErrorCode;
import dev.jobweaver.common.job.JobControl;
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
    private static final String EXAMPLE = "{\"name\":\"deploy\",\"job\":{...}} or"
            + " {\"name\":\"deploy\",\"workflowId\":\"...\"}";

    private final JsonBody json;
    private final JobRequestReader jobs;
    private final JobRequestValidator validator;
    private final int defaultRetryCount;

    HookRequestReader(ObjectMapper base, JobRequestValidator validator, int defaultRetryCount) {
        this.json = new JsonBody(base);
        this.jobs = new JobRequestReader(base);
        this.validator = validator;
        this.defaultRetryCount = defaultRetryCount;
    }

    /** The definition in {@code body}, valid at {@code now}, or an {@link ApiException} naming what is wrong. */
    HookDefinition read(byte[] body, Instant now) {
        return read(body, now, JobControl.DEFAULT_TENANT);
    }

    /**
     * The definition in {@code body}, valid at {@code now}, or an {@link ApiException} naming what is wrong; a job's
     * tenant {@code ownTenant} (the caller's) when the body names none; a workflow's hook takes its workflow's, which
     * the resource reads.
     */
    HookDefinition read(byte[] body, Instant now, String ownTenant) {
        JsonNode root = json.parse(body, EXAMPLE);
        if (root == null) {
            throw JsonBody.malformed("request body is empty");
        }
        if (!root.isObject()) {
            throw JsonBody.notAnObject(root);
        }
        String name = text(root, "name");
        String workflowText = text(root, "workflowId");
        JsonNode job = JsonBody.object(root, "job", "job", " (a POST /api/jobs body)");
        // parsed before the rules are checked: a wrong type in the job is a malformed request, as for jobs
        JobRequest request = job == null ? null : jobs.readMember(job, "job", ApiErrorCode.INVALID_HOOK_REQUEST);

        List<String> out = new ArrayList<>();
        JsonBody.checkName(name, MAX_NAME_LENGTH, out);
        UUID workflowId = null;
        if (request != null && workflowText != null) {
            out.add("exactly one of job and workflowId is required, got both");
        } else if (request == null && workflowText == null) {
            out.add("exactly one of job and workflowId is required, got none: job is the job each call makes (a POST"
                    + " /api/jobs body), workflowId the workflow each call starts");
        } else if (workflowText != null) {
            workflowId = JsonBody.uuid("workflowId", workflowText, out);
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
        return new HookDefinition(name, tenant,
                new HookTarget.Job(JobRequestReader.templateText(request, tenant, defaultRetryCount)));
    }

    /** A string member, null when absent or null; a 400 when it is not a string or holds a NUL character. */
    private static String text(JsonNode root, String field) {
        return JsonBody.storedText(root, field, field, ApiErrorCode.INVALID_HOOK_REQUEST);
    }
}
