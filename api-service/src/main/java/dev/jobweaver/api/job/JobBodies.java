package dev.jobweaver.api.job;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobweaver.api.job.store.JsonColumns;
import dev.jobweaver.api.platform.http.ApiErrorCode;
import dev.jobweaver.api.platform.http.ApiException;
import dev.jobweaver.api.platform.http.BodyErrors;
import dev.jobweaver.api.platform.http.StrictJson;
import dev.jobweaver.common.job.HttpCallPayload;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.JobPayload;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.job.Payloads;
import dev.jobweaver.common.job.StepRules.Limits;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Reads a job body wherever one appears: a {@code POST /api/jobs} body, the job of a schedule, a hook or a workflow
 * node, the payload of a requeue. A body is bound to {@link JobRequest} with {@link StrictJson}'s strictness (no
 * coercion, no trailing data, no duplicate key) and its refusals are worded by {@link BodyErrors}, every field named by
 * its path; then its rules, bounded by {@code jobweaver.api.validation}, are checked by {@link JobRequest#violations}.
 *
 * <p>The payload is read as its type's record ({@link JobPayload} for {@code SIMULATION} and, since the original API
 * knew no other type, when {@code jobType} is missing; {@link HttpCallPayload} for {@code HTTP}), with the same
 * strictness, and handed on as that record's tree: what is stored and published is exactly what the type defines,
 * without the extra fields a client may have sent. Unknown fields are ignored at every level, as the original API did.
 *
 * <p>Thread-safe: its readers and limits are immutable.
 */
@Singleton
public class JobBodies {

    private final ObjectReader request;
    private final ObjectReader simulation;
    private final ObjectReader http;
    private final Limits limits;
    private final int defaultRetryCount;
    private final int maxPayloadBytes;

    @Inject
    public JobBodies(ObjectMapper mapper, JobApiConfig config) {
        this(mapper, limitsOf(config.validation()), config.validation().defaultRetryCount(),
                config.validation().maxPayloadBytes());
        String beyond = limits.exceeding(Limits.CEILINGS);
        if (beyond != null) {
            // The scheduler and the worker quarantine jobs beyond the ceilings: accepting them here would lose them.
            throw new IllegalStateException("jobweaver.api.validation." + beyond
                    + ", the most the other services accept; lower it");
        }
    }

    JobBodies(ObjectMapper mapper, Limits limits, int defaultRetryCount) {
        this(mapper, limits, defaultRetryCount, 65_536);
    }

    JobBodies(ObjectMapper mapper, Limits limits, int defaultRetryCount, int maxPayloadBytes) {
        ObjectMapper strict = StrictJson.strictCopy(mapper);
        // the records of common's payloads refuse unknown fields for the worker; a client's extra fields are dropped
        strict.disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        this.request = strict.readerFor(JobRequest.class);
        this.simulation = strict.readerFor(JobPayload.class);
        this.http = strict.readerFor(HttpCallPayload.class);
        this.limits = limits;
        this.defaultRetryCount = defaultRetryCount;
        this.maxPayloadBytes = maxPayloadBytes;
    }

    private static Limits limitsOf(JobApiConfig.Validation config) {
        return new Limits(config.maxSteps(), config.maxDurationMs(), config.maxLatencyMs(), config.maxIterations(),
                config.maxMessageLength(), config.maxUrlLength(), config.maxRetryCount());
    }

    /** The request in {@code body}, bound and normalised, not yet checked; an {@link ApiException} naming the field. */
    public JobRequest read(byte[] body) {
        if (body == null || body.length == 0) {
            throw BodyErrors.empty(JobRequest.class);
        }
        JobRequest bound;
        try {
            bound = request.readValue(body);
        } catch (JsonProcessingException e) {
            throw BodyErrors.unreadable(e, JobRequest.class);
        } catch (IOException e) {
            throw BodyErrors.unreadable(e);
        }
        if (bound == null) {
            throw BodyErrors.notAnObject("null", JobRequest.class);
        }
        JobRequest job = normalised(bound, "");
        if (body.length > maxPayloadBytes) {
            // a payload is shorter than the body that holds it: most bodies need no measuring
            checkSize(job.payload(), "payload", ApiErrorCode.INVALID_JOB_REQUEST);
        }
        return job;
    }

    /**
     * The request held in {@code job}, a JSON object that is the member {@code field} of a larger body (a schedule's
     * {@code job}), bound as {@link #read} binds a body, not yet checked; every message names the field under
     * {@code field} ({@code job.payload.steps[0].durationMs}), a broken rule with {@code rule}, the code of the body
     * that holds the job.
     */
    public JobRequest member(JsonNode job, String field, ApiErrorCode rule) {
        return answeredWith(rule, () -> {
            JobRequest bound;
            try {
                bound = request.readValue(job);
            } catch (JsonProcessingException e) {
                throw BodyErrors.unreadable(e, JobRequest.class, field);
            } catch (IOException e) {
                throw BodyErrors.unreadable(e);
            }
            JobRequest normalised = normalised(bound, field + ".");
            checkSize(normalised.payload(), field + ".payload", rule);
            return normalised;
        });
    }

    /**
     * Every rule {@code job} breaks if it is accepted at {@code acceptedAt} (at most {@value JobRequest#MAX_REPORTED}),
     * each naming its field; empty when it is valid.
     */
    public List<String> violations(JobRequest job, Instant acceptedAt) {
        return job.violations(limits, acceptedAt);
    }

    /**
     * {@code payload} read, normalised and checked as the payload of a submission of {@code type} accepted now, so that
     * a payload accepted here is one {@code POST /api/jobs} would accept: the same messages, each naming a field under
     * {@code payload.}, a broken rule answered with {@code rule}.
     */
    public JsonNode payload(JobType type, JsonNode payload, ApiErrorCode rule) {
        JsonNode normalised = answeredWith(rule, () -> tree(type, payload, "payload"));
        checkSize(normalised, "payload", rule);
        List<String> violations = violations(new JobRequest(type, normalised, null, null, null, null, null, null,
                null, null, null), Instant.now());
        if (!violations.isEmpty()) {
            throw new ApiException(rule, String.join("; ", violations));
        }
        return normalised;
    }

    /**
     * {@code job}, read by {@link #member} and valid, as a schedule, hook or workflow stores the job it makes: without
     * the fields it does not give, and with what a later change of the service's defaults must not change made
     * explicit: its retries ({@code default-retry-count} when it names none) and its {@code tenant} unless the default.
     */
    public ObjectNode template(JobRequest job, String tenant) {
        ObjectNode tree = JsonColumns.mapper().valueToTree(job);
        List<String> absent = new ArrayList<>();
        tree.properties().forEach(field -> {
            if (field.getValue().isNull()) {
                absent.add(field.getKey());
            }
        });
        absent.forEach(tree::remove);
        if (job.maxRetryCount() == null) {
            tree.put("maxRetryCount", defaultRetryCount);
        }
        if (!JobControl.DEFAULT_TENANT.equals(tenant)) {
            tree.put("tenant", tenant);
        }
        return tree;
    }

    /** The {@link #template} as the JSON text a schedule or hook stores. */
    public String templateText(JobRequest job, String tenant) {
        try {
            return JsonColumns.mapper().writeValueAsString(template(job, tenant));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("could not write a job template", e);
        }
    }

    /** The retries of a job that names none. */
    public int defaultRetryCount() {
        return defaultRetryCount;
    }

    /**
     * {@code bound} with its payload read as its type's record; failures named under {@code prefix + "payload"}. A type
     * of a team's own gets an empty object when it names no payload.
     */
    private JobRequest normalised(JobRequest bound, String prefix) {
        JsonNode payload = bound.payload();
        if (payload == null || payload.isNull()) {
            boolean own = bound.jobType() != null && !bound.jobType().builtIn();
            return bound.withPayload(own ? JsonNodeFactory.instance.objectNode() : null);
        }
        return bound.withPayload(tree(bound.jobType(), payload, prefix + "payload"));
    }

    /**
     * {@code payload} read as {@code type}'s record and written back as a tree, or as it is for a type whose handler
     * alone knows its shape; failures named under {@code field}.
     */
    private JsonNode tree(JobType type, JsonNode payload, String field) {
        if (!payload.isObject()) {
            throw BodyErrors.wrongType(field, "an object", payload);
        }
        if (type != null && !type.builtIn()) {
            return payload;
        }
        ObjectReader typed = JobType.HTTP.equals(type) ? http : simulation;
        try {
            return Payloads.tree(typed.readValue(payload));
        } catch (JsonProcessingException e) {
            throw BodyErrors.unreadable(e, JobRequest.class, field);
        } catch (IOException e) {
            throw BodyErrors.unreadable(e);
        }
    }

    /** A 400 with {@code rule} naming {@code field} when {@code payload} is longer than the bound as JSON. */
    private void checkSize(JsonNode payload, String field, ApiErrorCode rule) {
        if (payload == null) {
            return;
        }
        int bytes = payload.toString().getBytes(StandardCharsets.UTF_8).length;
        if (bytes > maxPayloadBytes) {
            throw new ApiException(rule, field + " must be at most " + maxPayloadBytes + " bytes of JSON, got " + bytes
                    + "; pass larger data by reference (a URL, an object store key)");
        }
    }

    /** What {@code read} gives; a broken rule of the job answered with {@code rule} rather than the job's own code. */
    private static <T> T answeredWith(ApiErrorCode rule, Supplier<T> read) {
        try {
            return read.get();
        } catch (ApiException e) {
            if (e.code() == ApiErrorCode.INVALID_JOB_REQUEST) {
                throw new ApiException(rule, e.getMessage());
            }
            throw e;
        }
    }
}
