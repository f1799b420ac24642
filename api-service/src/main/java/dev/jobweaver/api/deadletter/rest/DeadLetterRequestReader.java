package dev.jobweaver.api.deadletter.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobweaver.api.job.rest.JobRequest;
import dev.jobweaver.api.job.rest.JobRequestReader;
import dev.jobweaver.api.job.rest.JobRequestValidator;
import dev.jobweaver.api.web.rest.ApiException;
import dev.jobweaver.common.error.ApiErrorCode;
import dev.jobweaver.common.event.JobCommandEvent;
import dev.jobweaver.common.job.JobControlRules;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.job.StepRules;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

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

    /** The longest discard reason. */
    static final int MAX_REASON_LENGTH = 1000;
    /** How many dead letters a bulk requeue takes when the body names no limit. */
    static final int DEFAULT_LIMIT = 100;
    /** The most dead letters one bulk requeue takes. */
    static final int MAX_LIMIT = 1000;

    private static final String JOB_TYPES = Arrays.stream(JobType.values()).map(Enum::name)
            .collect(Collectors.joining(", "));

    /** A requeue's body: both null keep the job's own. */
    record Requeue(JsonNode payload, Integer maxRetryCount) {
    }

    /** A bulk requeue's filter, every field but {@code limit} null when absent. */
    record BulkFilter(String tenant, JobType jobType, Instant failedAfter, Instant failedBefore, int limit) {
    }

    private final ObjectMapper strict;
    private final JobRequestReader jobs;
    private final JobRequestValidator validator;

    DeadLetterRequestReader(ObjectMapper base, StepRules.Limits limits) {
        ObjectMapper strict = base.copy();
        strict.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        strict.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION.mappedFeature());
        this.strict = strict;
        this.jobs = new JobRequestReader(base);
        this.validator = new JobRequestValidator(limits);
    }

    /**
     * The body of {@code POST /api/dead-letters/{jobId}/requeue}: none, or {@code {"payload":{...},"maxRetryCount":n}}
     * with either field optional. The payload is checked later, against the job's type ({@link #payload}).
     */
    Requeue readRequeue(byte[] body) {
        JsonNode root = object(body, "{\"payload\":{...},\"maxRetryCount\":3}", true);
        if (root == null) {
            return new Requeue(null, null);
        }
        JsonNode payload = root.get("payload");
        if (payload != null && !payload.isNull() && !payload.isObject()) {
            throw malformed("payload must be an object, got " + describe(payload));
        }
        JsonNode retries = root.get("maxRetryCount");
        Integer maxRetryCount = null;
        if (retries != null && !retries.isNull()) {
            if (!retries.isIntegralNumber()) {
                throw malformed("maxRetryCount must be an integer, got " + describe(retries));
            }
            if (!retries.canConvertToInt() || retries.intValue() < 0
                    || retries.intValue() > JobCommandEvent.MAX_RETRY_COUNT) {
                throw invalid("maxRetryCount must be between 0 and " + JobCommandEvent.MAX_RETRY_COUNT + ", got "
                        + retries.asText());
            }
            maxRetryCount = retries.intValue();
        }
        return new Requeue(payload == null || payload.isNull() ? null : payload, maxRetryCount);
    }

    /**
     * {@code payload} checked and normalised as the payload of a submission of {@code type}: the same messages, each
     * naming a field under {@code payload.}.
     */
    JsonNode payload(JobType type, JsonNode payload) {
        ObjectNode submission = strict.createObjectNode();
        submission.put("jobType", type.name());
        submission.set("payload", payload);
        JobRequest request;
        try {
            request = jobs.read(strict.writeValueAsBytes(submission));
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

    /** The body of {@code POST /api/dead-letters/{jobId}/discard}: its {@code reason}, 1 to 1000 characters. */
    String readDiscard(byte[] body) {
        JsonNode root = object(body, "{\"reason\":\"the input file is gone\"}", false);
        JsonNode reason = root.get("reason");
        if (reason == null || reason.isNull()) {
            throw invalid("reason is required (1 to " + MAX_REASON_LENGTH + " characters)");
        }
        if (!reason.isTextual()) {
            throw malformed("reason must be a string, got " + describe(reason));
        }
        String text = reason.textValue();
        if (text.isBlank()) {
            throw invalid("reason must not be blank");
        }
        if (text.length() > MAX_REASON_LENGTH) {
            throw invalid("reason must be at most " + MAX_REASON_LENGTH + " characters, got " + text.length());
        }
        if (StepRules.hasNul(text)) {
            throw invalid("reason must not contain the NUL character (U+0000)");
        }
        return text;
    }

    /** The body of {@code POST /api/dead-letters/requeue}: none, or a filter whose every field is optional. */
    BulkFilter readBulk(byte[] body) {
        JsonNode root = object(body, "{\"tenant\":\"acme\",\"jobType\":\"HTTP\",\"limit\":100}", true);
        if (root == null) {
            return new BulkFilter(null, null, null, null, DEFAULT_LIMIT);
        }
        String tenant = text(root, "tenant");
        if (tenant != null && !JobControlRules.TENANT.matcher(tenant).matches()) {
            throw invalid("tenant must match " + JobControlRules.TENANT.pattern() + ", got '" + cut(tenant) + "'");
        }
        String type = text(root, "jobType");
        JobType jobType = null;
        if (type != null) {
            try {
                jobType = JobType.valueOf(type);
            } catch (IllegalArgumentException e) {
                throw invalid("jobType '" + cut(type) + "' is not a known value; valid values are " + JOB_TYPES);
            }
        }
        Instant failedAfter = instant(root, "failedAfter");
        Instant failedBefore = instant(root, "failedBefore");
        if (failedAfter != null && failedBefore != null && !failedAfter.isBefore(failedBefore)) {
            throw invalid("failedAfter must be before failedBefore, got " + failedAfter + " and " + failedBefore);
        }
        JsonNode limitNode = root.get("limit");
        int limit = DEFAULT_LIMIT;
        if (limitNode != null && !limitNode.isNull()) {
            if (!limitNode.isIntegralNumber()) {
                throw malformed("limit must be an integer, got " + describe(limitNode));
            }
            if (!limitNode.canConvertToInt() || limitNode.intValue() < 1 || limitNode.intValue() > MAX_LIMIT) {
                throw invalid("limit must be between 1 and " + MAX_LIMIT + ", got " + limitNode.asText());
            }
            limit = limitNode.intValue();
        }
        return new BulkFilter(tenant, jobType, failedAfter, failedBefore, limit);
    }

    /** The body as a JSON object; null for an absent body when {@code optional}. */
    private JsonNode object(byte[] body, String example, boolean optional) {
        if (body == null || body.length == 0) {
            if (optional) {
                return null;
            }
            throw malformed("request body is empty; expected a JSON object such as " + example);
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
            if (optional) {
                return null; // only whitespace
            }
            throw malformed("request body is empty; expected a JSON object such as " + example);
        }
        if (!root.isObject()) {
            throw malformed("request body must be a JSON object such as " + example + ", got " + describe(root));
        }
        return root;
    }

    /** The string member {@code field}, null when absent or null. */
    private static String text(JsonNode root, String field) {
        JsonNode node = root.get(field);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isTextual()) {
            throw malformed(field + " must be a string, got " + describe(node));
        }
        return node.textValue();
    }

    /** The ISO-8601 instant member {@code field}, null when absent or null. */
    private static Instant instant(JsonNode root, String field) {
        String text = text(root, field);
        if (text == null) {
            return null;
        }
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw invalid(field + " must be an ISO-8601 instant such as 2030-01-31T09:00:00Z, got '" + cut(text) + "'");
        }
    }

    private static String cut(String value) {
        return value.length() > 40 ? value.substring(0, 40) + "..." : value;
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
        return new ApiException(ApiErrorCode.INVALID_DEAD_LETTER_REQUEST, message);
    }
}
