package dev.jobweaver.api.schedule;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.job.JobRequest;
import dev.jobweaver.api.job.JobRequestReader;
import dev.jobweaver.api.job.JobRequestValidator;
import dev.jobweaver.api.platform.http.ApiException;
import dev.jobweaver.api.platform.http.ClientText;
import dev.jobweaver.api.platform.http.JsonBody;
import dev.jobweaver.api.platform.http.ApiErrorCode;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.schedule.Misfire;
import dev.jobweaver.common.schedule.Overlap;
import dev.jobweaver.common.schedule.ScheduleClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Reads the body of {@code POST} and {@code PUT /api/schedules} into a {@link ScheduleDefinition}, or a 400 naming the
 * field: {@code API.MALFORMED_JSON} for a body that is not JSON or a value of the wrong type (as for jobs),
 * {@code API.INVALID_SCHEDULE_REQUEST} for a broken rule. It names either a {@code workflowId} (whether that workflow
 * exists is the resource's question) or a {@code job}, which is read and checked exactly as a
 * {@code POST /api/jobs} body is ({@link JobRequestReader}, {@link JobRequestValidator}), with every message naming the
 * field under {@code job.}; the template is stored normalised, as the submission path would store the job.
 *
 * <p>Strict as the job reader: no coercion between strings, numbers and booleans, no trailing data, no duplicate key;
 * unknown properties are ignored.
 */
final class ScheduleRequestReader {

    /** The longest name. */
    static final int MAX_NAME_LENGTH = 200;
    /** The longest interval text ({@code schedules.interval_text}). */
    static final int MAX_INTERVAL_LENGTH = 64;

    private final JsonBody json;
    private final JobRequestReader jobs;
    private final JobRequestValidator validator;
    private final int defaultRetryCount;

    ScheduleRequestReader(ObjectMapper base, JobRequestValidator validator, int defaultRetryCount) {
        this.json = new JsonBody(base);
        this.jobs = new JobRequestReader(base);
        this.validator = validator;
        this.defaultRetryCount = defaultRetryCount;
    }

    /** The definition in {@code body}, valid at {@code now}, or an {@link ApiException} naming what is wrong. */
    ScheduleDefinition read(byte[] body, Instant now) {
        return read(body, now, JobControl.DEFAULT_TENANT);
    }

    /**
     * The definition in {@code body}, valid at {@code now}, or an {@link ApiException} naming what is wrong; its tenant
     * {@code ownTenant} (the caller's) when the body names none.
     */
    ScheduleDefinition read(byte[] body, Instant now, String ownTenant) {
        JsonNode root = json.parse(body, "{\"name\":\"nightly\",\"cron\":\"0 2 * * *\",\"job\":{...}}");
        if (root == null) {
            throw JsonBody.malformed("request body is empty");
        }
        if (!root.isObject()) {
            throw JsonBody.notAnObject(root);
        }
        String name = text(root, "name");
        String tenant = text(root, "tenant");
        String cron = text(root, "cron");
        String interval = text(root, "interval");
        String timezone = text(root, "timezone");
        String misfireText = text(root, "misfire");
        String overlapText = text(root, "overlap");
        Boolean paused = bool(root, "paused");
        String workflowId = text(root, "workflowId");
        JsonNode job = JsonBody.object(root, "job", "job", " (a POST /api/jobs body)");
        // parsed before the rules are checked: a wrong type in the job is a malformed request, as for jobs
        JobRequest request = job == null ? null
                : jobs.readMember(job, "job", ApiErrorCode.INVALID_SCHEDULE_REQUEST);

        List<String> out = new ArrayList<>();
        JsonBody.checkName(name, MAX_NAME_LENGTH, out);
        JsonBody.checkTenant(tenant, out);
        if (interval != null && interval.length() > MAX_INTERVAL_LENGTH) {
            out.add("interval must be at most " + MAX_INTERVAL_LENGTH + " characters, got " + interval.length());
        } else {
            try {
                ScheduleClock.of(cron, interval, timezone, now);
            } catch (IllegalArgumentException e) {
                out.add(e.getMessage());
            }
        }
        Misfire misfire = JsonBody.enumValue("misfire", misfireText, Misfire.class, Misfire.FIRE_ONCE, out);
        Overlap overlap = JsonBody.enumValue("overlap", overlapText, Overlap.class, Overlap.ALLOW, out);
        UUID workflow = null;
        if (request != null && workflowId != null) {
            out.add("exactly one of job and workflowId is required, got both");
        } else if (request == null && workflowId == null) {
            out.add("exactly one of job and workflowId is required, got none: job is the job each run makes (a POST"
                    + " /api/jobs body), workflowId the workflow each run starts");
        } else if (workflowId != null) {
            workflow = JsonBody.uuid("workflowId", workflowId, out);
        }
        String effectiveTenant = tenant;
        if (request != null) {
            List<String> violations = validator.violations(request, now);
            violations.forEach(violation -> out.add("job." + violation));
            if (request.runAt() != null) {
                out.add("job.runAt is not allowed in a schedule: each run's job starts at its tick; use job.delayMs to"
                        + " start it later than its tick");
            }
            if (tenant != null && request.tenant() != null && !tenant.equals(request.tenant())) {
                out.add("job.tenant '" + ClientText.cut(request.tenant()) + "' differs from the schedule's tenant '"
                        + ClientText.cut(tenant) + "'; give one of them, or the same");
            }
            if (effectiveTenant == null) {
                effectiveTenant = request.tenant();
            }
        }
        if (!out.isEmpty()) {
            throw new ApiException(ApiErrorCode.INVALID_SCHEDULE_REQUEST, String.join("; ", out));
        }
        if (workflow != null) {
            // the tenant is the workflow's, which the resource reads; a tenant given here must be that one
            return new ScheduleDefinition(name, tenant, cron, interval,
                    timezone == null ? ScheduleClock.DEFAULT_TIMEZONE : timezone, misfire, overlap,
                    paused != null && paused, new ScheduleTarget.Workflow(workflow));
        }
        String scheduleTenant = effectiveTenant == null ? ownTenant : effectiveTenant;
        String template = JobRequestReader.templateText(request, scheduleTenant, defaultRetryCount);
        return new ScheduleDefinition(name, scheduleTenant, cron, interval,
                timezone == null ? ScheduleClock.DEFAULT_TIMEZONE : timezone, misfire, overlap,
                paused != null && paused, new ScheduleTarget.Job(template));
    }

    /** A string member, null when absent or null; a 400 when it is not a string or holds a NUL character. */
    private static String text(JsonNode root, String field) {
        return JsonBody.storedText(root, field, field, ApiErrorCode.INVALID_SCHEDULE_REQUEST);
    }

    /** A boolean member, null when absent or null; a 400 when it is not a boolean. */
    private static Boolean bool(JsonNode root, String field) {
        JsonNode node = root.get(field);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isBoolean()) {
            throw JsonBody.wrongType(field, "true or false", node);
        }
        return node.booleanValue();
    }
}
