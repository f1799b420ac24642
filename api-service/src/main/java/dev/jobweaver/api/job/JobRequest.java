package dev.jobweaver.api.job;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.api.platform.http.ApiErrorCode;
import dev.jobweaver.api.platform.http.Body;
import dev.jobweaver.common.job.HttpCallPayload;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.JobPayload;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.job.Payloads;
import dev.jobweaver.common.job.Priority;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The body of {@code POST /api/jobs}: the wire format of the original JobWeaver API, plus the optional job-control
 * fields.
 *
 * <p>Read by {@link JobRequestReader} (not by the REST layer), hence registered for reflection.
 *
 * @param payload the job's payload as a JSON tree, shaped by {@code jobType}; {@link JobRequestReader} hands it on
 *                normalised (as its type's record writes it, fields the type does not know dropped)
 * @param runAt the earliest start as ISO-8601 text, parsed by {@link #runAtInstant()} so that a bad one is a 400
 *              naming the field
 */
@RegisterForReflection
@Body(rule = ApiErrorCode.INVALID_JOB_REQUEST, example = JobRequest.EXAMPLE)
@Schema(name = "JobRequest", example = """
        {"jobType":"SIMULATION","payload":{"steps":[{"action":"LOG","message":"hi"},{"action":"SLEEP","durationMs":500}]},"maxRetryCount":3,"priority":"HIGH","delayMs":5000,"labels":{"team":"billing"}}""")
public record JobRequest(
        @Schema(required = true, description = "the kind of job: SIMULATION (steps) or HTTP (one outbound request)")
        JobType jobType,
        @Schema(required = true, type = SchemaType.OBJECT, oneOf = {JobPayload.class, HttpCallPayload.class},
                description = "what the job does, shaped by jobType: {\"steps\":[...]} for SIMULATION,"
                        + " {\"method\",\"url\",\"headers\",\"body\",\"expectedStatus\",\"timeoutMs\"} for HTTP")
        JsonNode payload,
        @Schema(description = "retries after the first attempt, 0..10 (default 3)", minimum = "0", maximum = "10")
        Integer maxRetryCount,
        @Schema(description = "dispatch level (default NORMAL); claims look at HIGH first 70% of the time, NORMAL 20%,"
                + " LOW 10%, then fall through, so no level starves")
        Priority priority,
        @Schema(type = SchemaType.STRING, format = "date-time", description = "start no earlier than this instant"
                + " (ISO-8601, at most 365 days ahead; a past instant means at once); not with delayMs")
        String runAt,
        @Schema(description = "start no earlier than this many ms after acceptance, 0..31536000000 (365 days);"
                + " not with runAt", minimum = "0", maximum = "31536000000")
        Long delayMs,
        @Schema(description = "an attempt running longer fails with WORKER.TIMEOUT and is retried, 1..86400000 ms"
                + " (24 h)", minimum = "1", maximum = "86400000")
        Long timeoutMs,
        @Schema(description = "the delay before each retry in ms (1 to 10 entries, each 0..365 days); retry n waits"
                + " entry min(n, last); without it the exponential backoff applies")
        List<Long> retryDelaysMs,
        @Schema(description = "the owning tenant, [a-z0-9][a-z0-9-]{0,62} (default 'default')",
                pattern = "[a-z0-9][a-z0-9-]{0,62}")
        String tenant,
        @Schema(description = "up to 16 string pairs, filterable with GET /api/jobs?label=key:value; keys 1 to 63"
                + " letters, digits, '.', '_', '/' or '-', values at most 255 characters")
        Map<String, String> labels) {

    /** A body the endpoint takes, as a refusal of an empty or non-object body shows it. */
    static final String EXAMPLE = "{\"jobType\":\"SIMULATION\",\"payload\":{\"steps\":[...]}}";

    /** A request of the original API, its steps as a record: type, payload and retries, no job control. */
    public JobRequest(JobType jobType, JobPayload payload, Integer maxRetryCount) {
        this(jobType, Payloads.tree(payload), maxRetryCount, null, null, null, null, null, null, null);
    }

    /** This request with {@code payload} in place of its own. */
    JobRequest withPayload(JsonNode payload) {
        return new JobRequest(jobType, payload, maxRetryCount, priority, runAt, delayMs, timeoutMs, retryDelaysMs,
                tenant, labels);
    }

    /**
     * {@link #runAt} as an instant; null when absent; {@link DateTimeParseException} when it is not ISO-8601. A date and
     * time with an offset ({@code Z} or {@code +01:00}), its seconds and fraction optional as ISO 8601 allows:
     * {@code Instant.parse} alone requires the seconds.
     */
    Instant runAtInstant() {
        return runAt == null ? null : OffsetDateTime.parse(runAt, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
    }

    /**
     * The job control this request asks for, its start resolved against {@code acceptedAt}: {@code delayMs} becomes
     * the instant it names, and a start at or before acceptance becomes the acceptance itself (at once). Null when the
     * request asks for none, so that the event of an original-API request is what it always was. Only for a request
     * that {@link JobRequestValidator} passed.
     */
    public JobControl control(Instant acceptedAt) {
        Instant start = runAt != null ? runAtInstant().truncatedTo(ChronoUnit.MICROS)
                : delayMs != null ? acceptedAt.plusMillis(delayMs) : null;
        if (start != null && start.isBefore(acceptedAt)) {
            start = acceptedAt;
        }
        if (priority == null && start == null && timeoutMs == null && retryDelaysMs == null && tenant == null
                && labels == null) {
            return null;
        }
        return new JobControl(priority, start, timeoutMs, retryDelaysMs == null ? null
                : Collections.unmodifiableList(new ArrayList<>(retryDelaysMs)),
                tenant, labels == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(labels)));
    }
}
