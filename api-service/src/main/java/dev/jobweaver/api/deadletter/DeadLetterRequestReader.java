package dev.jobweaver.api.deadletter;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobweaver.api.job.JobRequest;
import dev.jobweaver.api.job.JobRequestReader;
import dev.jobweaver.api.job.JobRequestValidator;
import dev.jobweaver.api.platform.http.ApiException;
import dev.jobweaver.api.platform.http.ClientText;
import dev.jobweaver.api.platform.http.JsonBody;
import dev.jobweaver.api.platform.http.ApiErrorCode;
import dev.jobweaver.common.event.JobCommandEvent;
import dev.jobweaver.common.job.JobControlRules;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.job.StepRules;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;

/**
 * Reads the bodies of the dead-letter endpoints, or a 400 naming the field: {@code API.MALFORMED_JSON} for a body that
 * is not JSON or a value of the wrong type (as for jobs and schedules), {@code API.INVALID_DEAD_LETTER_REQUEST} for a
 * broken rule.
 *
 * <p>Strict as the job reader: no coercion, no trailing data, no duplicate key; unknown properties are ignored, as
 * everywhere in the API. A requeue's payload is read and checked by the job reader and validator themselves
 * ({@link JobRequestReader}, {@link JobRequestValidator}) as the payload of a submission of the job's type, so that a
 * payload accepted here is one {@code POST /api/jobs} would accept, normalised the same way.
 */
final class DeadLetterRequestReader {

    /** How many dead letters a bulk requeue takes when the body names no limit. */
    static final int DEFAULT_LIMIT = 100;
    /** The most dead letters one bulk requeue takes. */
    static final int MAX_LIMIT = 1000;

    /** A requeue's body: both null keep the job's own. */
    record Requeue(JsonNode payload, Integer maxRetryCount) {
    }

    /** A bulk requeue's filter, every field but {@code limit} null when absent. */
    record BulkFilter(String tenant, JobType jobType, Instant failedAfter, Instant failedBefore, int limit) {
    }

    private final ObjectMapper mapper;
    private final JsonBody json;
    private final JobRequestReader jobs;
    private final JobRequestValidator validator;

    DeadLetterRequestReader(ObjectMapper base, StepRules.Limits limits) {
        this.mapper = base;
        this.json = new JsonBody(base);
        this.jobs = new JobRequestReader(base);
        this.validator = new JobRequestValidator(limits);
    }

    /**
     * The body of {@code POST /api/dead-letters/{jobId}/requeue}: none, or {@code {"payload":{...},"maxRetryCount":n}}
     * with either field optional. The payload is checked later, against the job's type ({@link #payload}).
     */
    Requeue readRequeue(byte[] body) {
        JsonNode root = json.parseOptionalObject(body, "{\"payload\":{...},\"maxRetryCount\":3}");
        if (root == null) {
            return new Requeue(null, null);
        }
        JsonNode payload = JsonBody.object(root, "payload", "payload", "");
        Integer maxRetryCount = JsonBody.integer(root, "maxRetryCount", 0, JobCommandEvent.MAX_RETRY_COUNT,
                ApiErrorCode.INVALID_DEAD_LETTER_REQUEST);
        return new Requeue(payload, maxRetryCount);
    }

    /**
     * {@code payload} checked and normalised as the payload of a submission of {@code type}: the same messages, each
     * naming a field under {@code payload.}.
     */
    JsonNode payload(JobType type, JsonNode payload) {
        ObjectNode submission = mapper.createObjectNode();
        submission.put("jobType", type.name());
        submission.set("payload", payload);
        JobRequest request;
        try {
            request = jobs.read(mapper.writeValueAsBytes(submission));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a parsed payload could not be written again", e);
        } catch (ApiException e) {
            throw e.code() == ApiErrorCode.INVALID_JOB_REQUEST ? invalid(e.getMessage()) : e;
        }
        List<String> violations = validator.violations(request, Instant.now());
        if (!violations.isEmpty()) {
            throw invalid(String.join("; ", violations));
        }
        return request.payload();
    }

    /** The body of {@code POST /api/dead-letters/requeue}: none, or a filter whose every field is optional. */
    BulkFilter readBulk(byte[] body) {
        JsonNode root = json.parseOptionalObject(body, "{\"tenant\":\"acme\",\"jobType\":\"HTTP\",\"limit\":100}");
        if (root == null) {
            return new BulkFilter(null, null, null, null, DEFAULT_LIMIT);
        }
        String tenant = JsonBody.text(root, "tenant");
        if (tenant != null && !JobControlRules.TENANT.matcher(tenant).matches()) {
            throw invalid("tenant must match " + JobControlRules.TENANT.pattern() + ", got '" + ClientText.cut(tenant)
                    + "'");
        }
        String type = JsonBody.text(root, "jobType");
        JobType jobType = null;
        if (type != null) {
            try {
                jobType = JobType.valueOf(type);
            } catch (IllegalArgumentException e) {
                throw invalid(JsonBody.unknownValue("jobType", type, JobType.class));
            }
        }
        Instant failedAfter = instant(root, "failedAfter");
        Instant failedBefore = instant(root, "failedBefore");
        if (failedAfter != null && failedBefore != null && !failedAfter.isBefore(failedBefore)) {
            throw invalid("failedAfter must be before failedBefore, got " + failedAfter + " and " + failedBefore);
        }
        Integer limit = JsonBody.integer(root, "limit", 1, MAX_LIMIT, ApiErrorCode.INVALID_DEAD_LETTER_REQUEST);
        return new BulkFilter(tenant, jobType, failedAfter, failedBefore, limit == null ? DEFAULT_LIMIT : limit);
    }

    /** The ISO-8601 instant member {@code field}, null when absent or null. */
    private static Instant instant(JsonNode root, String field) {
        String text = JsonBody.text(root, field);
        if (text == null) {
            return null;
        }
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw invalid(field + " must be an ISO-8601 instant such as 2030-01-31T09:00:00Z, got '"
                    + ClientText.cut(text) + "'");
        }
    }

    private static ApiException invalid(String message) {
        return new ApiException(ApiErrorCode.INVALID_DEAD_LETTER_REQUEST, message);
    }
}
