package dev.jobweaver.api.job;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.api.platform.http.ApiErrorCode;
import dev.jobweaver.api.platform.http.Body;
import dev.jobweaver.api.platform.http.Expected;
import dev.jobweaver.common.job.HttpCallPayload;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.JobControlRules;
import dev.jobweaver.common.job.JobPayload;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.job.Payloads;
import dev.jobweaver.common.job.Priority;
import dev.jobweaver.common.job.StepRules.Limits;
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
 * fields; also the job of a schedule, a hook and a workflow node. Unknown fields are ignored, as the original API did.
 *
 * <p>Bound by {@link JobBodies} with {@link dev.jobweaver.api.platform.http.StrictJson}'s strictness (not by the REST
 * layer, hence registered for reflection), its refusals worded by {@link dev.jobweaver.api.platform.http.BodyErrors}.
 * Its bounds are configuration and its start is relative to its acceptance, so {@link #violations} checks them once it
 * is bound, as {@code ScheduleRequest.definition} checks a schedule's timing.
 *
 * @param payload the job's payload as a JSON tree, shaped by {@code jobType}; {@link JobBodies} hands it on
 *                normalised (as its type's record writes it, fields the type does not know dropped)
 * @param runAt the earliest start as ISO-8601 text, parsed by {@link #runAtInstant()} so that a bad one is a 400
 *              naming the field
 */
@RegisterForReflection
@Body(rule = ApiErrorCode.INVALID_JOB_REQUEST, example = JobRequest.EXAMPLE, showsValue = true)
@JsonIgnoreProperties(ignoreUnknown = true)
@Schema(name = "JobRequest", example = """
        {"jobType":"SIMULATION","payload":{"steps":[{"action":"LOG","message":"hi"},{"action":"SLEEP","durationMs":500}]},"maxRetryCount":3,"priority":"HIGH","delayMs":5000,"labels":{"team":"billing"}}""")
public record JobRequest(
        @Schema(required = true, type = SchemaType.STRING, pattern = JobType.PATTERN, description = "the kind of job:"
                + " SIMULATION (steps), HTTP (one outbound request) or the name a handler of your own declares")
        @Expected("a string") JobType jobType,
        @Schema(type = SchemaType.OBJECT, oneOf = {JobPayload.class, HttpCallPayload.class, Object.class},
                description = "what the job does, shaped by jobType: {\"steps\":[...]} for SIMULATION (required),"
                        + " {\"method\",\"url\",\"headers\",\"body\",\"expectedStatus\",\"timeoutMs\"} for HTTP"
                        + " (required), any JSON object for a type of your own (default {})")
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
        Map<String, String> labels,
        @Schema(description = "the queue whose workers run the job, [a-z0-9][a-z0-9-]{0,62} (default 'default')",
                pattern = "[a-z0-9][a-z0-9-]{0,62}")
        String queue) {

    /** A body the endpoint takes, as a refusal of an empty or non-object body shows it. */
    static final String EXAMPLE = "{\"jobType\":\"SIMULATION\",\"payload\":{\"steps\":[...]}}";
    /** How many violations one answer lists at most. */
    static final int MAX_REPORTED = 10;

    private static final String JOB_TYPES = "SIMULATION, HTTP or the name a handler of your own declares ("
            + JobType.PATTERN + ")";

    /** A request of the original API, its steps as a record: type, payload and retries, no job control. */
    public JobRequest(JobType jobType, JobPayload payload, Integer maxRetryCount) {
        this(jobType, Payloads.tree(payload), maxRetryCount, null, null, null, null, null, null, null, null);
    }

    /** This request with {@code payload} in place of its own. */
    JobRequest withPayload(JsonNode payload) {
        return new JobRequest(jobType, payload, maxRetryCount, priority, runAt, delayMs, timeoutMs, retryDelaysMs,
                tenant, labels, queue);
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
     * that {@link #violations} passed.
     */
    public JobControl control(Instant acceptedAt) {
        Instant start = runAt != null ? runAtInstant().truncatedTo(ChronoUnit.MICROS)
                : delayMs != null ? acceptedAt.plusMillis(delayMs) : null;
        if (start != null && start.isBefore(acceptedAt)) {
            start = acceptedAt;
        }
        if (priority == null && start == null && timeoutMs == null && retryDelaysMs == null && tenant == null
                && labels == null && queue == null) {
            return null;
        }
        return new JobControl(priority, start, timeoutMs, retryDelaysMs == null ? null
                : Collections.unmodifiableList(new ArrayList<>(retryDelaysMs)),
                tenant, labels == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(labels)), queue);
    }

    /**
     * Every rule this request breaks if it is accepted at {@code acceptedAt} (at most {@value #MAX_REPORTED}), each
     * naming its field ({@code payload.steps[2].durationMs must be between 0 and 60000}); empty when it is valid.
     *
     * <p>Every step is bounded and so is their number, so a job that passes can never wedge a worker. The payload is
     * checked by {@link Payloads#check} and the job control by {@link JobControlRules}, the rules the scheduler and the
     * worker apply to the events, so that a job accepted here is never quarantined there.
     */
    List<String> violations(Limits limits, Instant acceptedAt) {
        List<String> out = new ArrayList<>();
        if (jobType == null) {
            out.add("jobType is required: " + JOB_TYPES);
        }
        if (maxRetryCount != null && (maxRetryCount < 0 || maxRetryCount > limits.maxRetryCount())) {
            out.add("maxRetryCount must be between 0 and " + limits.maxRetryCount() + ", got " + maxRetryCount);
        }
        boolean startValid = startValid(acceptedAt, out);
        if (payload == null || payload.isNull()) {
            out.add(JobType.HTTP.equals(jobType) ? "payload is required and must hold at least method and url"
                    : "payload is required and must hold a non-empty steps array");
        } else {
            // without a type, checked as the original API's only one, as JobBodies read it
            Payloads.check(jobType == null ? JobType.SIMULATION : jobType, payload, limits, out, MAX_REPORTED);
        }
        if (startValid) {
            JobControlRules.check(control(acceptedAt), acceptedAt, out);
        }
        return out.size() > MAX_REPORTED ? List.copyOf(out.subList(0, MAX_REPORTED)) : List.copyOf(out);
    }

    /** Checks runAt and delayMs; whether the start they name can be resolved. */
    private boolean startValid(Instant acceptedAt, List<String> out) {
        if (runAt != null && delayMs != null) {
            out.add("runAt and delayMs must not both be given: runAt is an instant, delayMs a delay from acceptance;"
                    + " send one of them");
            return false;
        }
        if (delayMs != null && (delayMs < 0 || delayMs > JobControlRules.MAX_DELAY_MS)) {
            out.add("delayMs must be between 0 and " + JobControlRules.MAX_DELAY_MS + " (365 days), got " + delayMs);
            return false;
        }
        if (runAt != null) {
            Instant start;
            try {
                start = runAtInstant();
            } catch (DateTimeParseException e) {
                out.add("runAt must be an ISO-8601 instant such as 2030-01-31T09:00:00Z, got '"
                        + (runAt.length() > 40 ? runAt.substring(0, 40) + "..." : runAt) + "'");
                return false;
            }
            if (start.isAfter(acceptedAt.plusMillis(JobControlRules.MAX_DELAY_MS))) {
                out.add("runAt must be at most 365 days after now (" + acceptedAt + "), got " + start);
                return false;
            }
        }
        return true;
    }
}
