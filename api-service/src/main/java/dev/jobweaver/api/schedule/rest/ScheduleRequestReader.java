package dev.jobweaver.api.schedule.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobweaver.api.job.persistence.JsonColumns;
import dev.jobweaver.api.job.rest.JobRequest;
import dev.jobweaver.api.job.rest.JobRequestReader;
import dev.jobweaver.api.job.rest.JobRequestValidator;
import dev.jobweaver.api.schedule.service.ScheduleDefinition;
import dev.jobweaver.api.schedule.service.ScheduleTarget;
import dev.jobweaver.api.web.rest.ApiException;
import dev.jobweaver.api.web.rest.UuidText;
import dev.jobweaver.common.error.ApiErrorCode;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.JobControlRules;
import dev.jobweaver.common.schedule.Misfire;
import dev.jobweaver.common.schedule.Overlap;
import dev.jobweaver.common.schedule.ScheduleClock;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;

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

    private final ObjectMapper strict;
    private final JobRequestReader jobs;
    private final JobRequestValidator validator;
    private final int defaultRetryCount;

    ScheduleRequestReader(ObjectMapper base, JobRequestValidator validator, int defaultRetryCount) {
        ObjectMapper strict = base.copy();
        strict.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        strict.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION.mappedFeature());
        this.strict = strict;
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
        if (body == null || body.length == 0) {
            throw malformed("request body is empty; expected a JSON object such as {\"name\":\"nightly\","
                    + "\"cron\":\"0 2 * * *\",\"job\":{...}}");
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
        String tenant = text(root, "tenant");
        String cron = text(root, "cron");
        String interval = text(root, "interval");
        String timezone = text(root, "timezone");
        String misfireText = text(root, "misfire");
        String overlapText = text(root, "overlap");
        Boolean paused = bool(root, "paused");
        String workflowId = text(root, "workflowId");
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
        if (tenant != null && !JobControlRules.TENANT.matcher(tenant).matches()) {
            out.add("tenant must match [a-z0-9][a-z0-9-]{0,62}, got '" + cut(tenant) + "'");
        }
        if (interval != null && interval.length() > MAX_INTERVAL_LENGTH) {
            out.add("interval must be at most " + MAX_INTERVAL_LENGTH + " characters, got " + interval.length());
        } else {
            try {
                ScheduleClock.of(cron, interval, timezone, now);
            } catch (IllegalArgumentException e) {
                out.add(e.getMessage());
            }
        }
        Misfire misfire = enumValue("misfire", misfireText, Misfire.class, Misfire.FIRE_ONCE, out);
        Overlap overlap = enumValue("overlap", overlapText, Overlap.class, Overlap.ALLOW, out);
        UUID workflow = null;
        if (request != null && workflowId != null) {
            out.add("exactly one of job and workflowId is required, got both");
        } else if (request == null && workflowId == null) {
            out.add("exactly one of job and workflowId is required, got none: job is the job each run makes (a POST"
                    + " /api/jobs body), workflowId the workflow each run starts");
        } else if (workflowId != null) {
            if (UuidText.matches(workflowId)) {
                workflow = UUID.fromString(workflowId);
            } else {
                out.add("workflowId must be a UUID such as " + UuidText.EXAMPLE + ", got '" + cut(workflowId) + "'");
            }
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
                out.add("job.tenant '" + cut(request.tenant()) + "' differs from the schedule's tenant '" + cut(tenant)
                        + "'; give one of them, or the same");
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
        return new ScheduleDefinition(name, scheduleTenant, cron, interval,
                timezone == null ? ScheduleClock.DEFAULT_TIMEZONE : timezone, misfire, overlap,
                paused != null && paused, new ScheduleTarget.Job(template(request, scheduleTenant)));
    }

    /** The job read as a submission body; its messages name fields under {@code job.}. */
    private JobRequest jobRequest(JsonNode job) {
        try {
            return jobs.readMember(job, "job");
        } catch (ApiException e) {
            if (e.code() == ApiErrorCode.INVALID_JOB_REQUEST) {
                throw new ApiException(ApiErrorCode.INVALID_SCHEDULE_REQUEST, e.getMessage());
            }
            throw e;
        }
    }

    /**
     * The job template as stored: the request as the reader normalised it, with what a later change of the service's
     * defaults must not change made explicit (its retries, its tenant), and without the fields it does not give.
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
        if (!JobControl.DEFAULT_TENANT.equals(tenant)) {
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
            throw new ApiException(ApiErrorCode.INVALID_SCHEDULE_REQUEST, field + " must not contain the NUL"
                    + " character");
        }
        return value;
    }

    /** A boolean member, null when absent or null; a 400 when it is not a boolean. */
    private static Boolean bool(JsonNode root, String field) {
        JsonNode node = root.get(field);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isBoolean()) {
            throw malformed(field + " must be true or false, got " + describe(node));
        }
        return node.booleanValue();
    }

    private static <E extends Enum<E>> E enumValue(String field, String value, Class<E> type, E fallback,
                                                   List<String> out) {
        if (value == null) {
            return fallback;
        }
        try {
            return Enum.valueOf(type, value);
        } catch (IllegalArgumentException e) {
            out.add(field + " '" + cut(value) + "' is not a known value; valid values are "
                    + Arrays.stream(type.getEnumConstants()).map(Enum::name).collect(Collectors.joining(", ")));
            return fallback;
        }
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

    private static String cut(String value) {
        return value.length() > 40 ? value.substring(0, 40) + "..." : value;
    }

    private static ApiException malformed(String message) {
        return new ApiException(ApiErrorCode.MALFORMED_JSON, message);
    }
}
