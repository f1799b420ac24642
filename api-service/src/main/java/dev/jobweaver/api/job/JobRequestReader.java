package dev.jobweaver.api.job;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.InvalidTypeIdException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobweaver.api.job.store.JsonColumns;
import dev.jobweaver.api.platform.http.ApiException;
import dev.jobweaver.api.platform.http.BodyErrors;
import dev.jobweaver.api.platform.http.ClientText;
import dev.jobweaver.api.platform.http.StrictJson;
import dev.jobweaver.api.platform.http.ApiErrorCode;
import dev.jobweaver.common.job.HttpCallPayload;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.JobPayload;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.job.Payloads;
import dev.jobweaver.common.job.Step;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses a {@link JobRequest} strictly and turns every Jackson failure into a 400 that names the field.
 *
 * <p>Strict means: no string-to-number, number-to-string or float-to-integer coercion, no trailing tokens, no
 * duplicate keys. Unknown properties are ignored (clients of the original API may send extra fields).
 *
 * <p>The payload is read as its type's record ({@link JobPayload} for {@code SIMULATION} and, since the original API
 * knew no other type, when {@code jobType} is missing; {@link HttpCallPayload} for {@code HTTP}), with the same
 * strictness and messages, and handed on as that record's tree: what is stored and published is exactly what the
 * type defines, without the extra fields a client may have sent.
 */
public final class JobRequestReader {

    private static final String VALID_ACTIONS = String.join(", ", Step.ACTIONS);

    private final ObjectReader reader;
    private final ObjectReader simulation;
    private final ObjectReader http;
    private final ObjectMapper lenient;

    public JobRequestReader(ObjectMapper base) {
        this.lenient = base;
        ObjectMapper strict = StrictJson.strictCopy(base);
        strict.disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES); // named by this reader, with the field list
        this.reader = strict.readerFor(JobRequest.class);
        this.simulation = strict.readerFor(JobPayload.class);
        this.http = strict.readerFor(HttpCallPayload.class);
    }

    /** The request in {@code body}, or an {@link ApiException} naming what is wrong. */
    public JobRequest read(byte[] body) {
        if (body == null || body.length == 0) {
            throw BodyErrors.empty(JobRequest.class);
        }
        JobRequest request;
        try {
            request = reader.readValue(body);
        } catch (JsonMappingException e) {
            throw mapping(e, "", () -> lenient.readTree(body));
        } catch (InputCoercionException e) {
            throw malformed("a number in the request body is out of range: " + e.getOriginalMessage());
        } catch (JsonProcessingException e) {
            throw BodyErrors.unreadable(e, JobRequest.class);
        } catch (IOException e) {
            throw BodyErrors.unreadable(e);
        }
        if (request == null) {
            throw malformed("request body must be a JSON object, not null");
        }
        JsonNode payload = request.payload();
        if (payload == null || payload.isNull()) {
            return request.withPayload(null);
        }
        if (!payload.isObject()) {
            throw malformed("payload must be an object, got " + describe(payload));
        }
        return request.withPayload(normalised(request.jobType(), payload, "payload"));
    }

    /**
     * The request held in {@code job}, a JSON object that is the member {@code field} of a larger body (a schedule's
     * {@code job}), read with the same strictness and normalisation as {@link #read}; every message names the field
     * under {@code field}, e.g. {@code job.payload.steps[0].durationMs}.
     */
    public JobRequest readMember(JsonNode job, String field) {
        JobRequest request;
        try {
            request = reader.readValue(job);
        } catch (JsonMappingException e) {
            throw mapping(e, field, () -> job);
        } catch (IOException e) {
            throw malformed(field + " could not be read: " + e.getMessage());
        }
        JsonNode payload = request.payload();
        if (payload == null || payload.isNull()) {
            return request.withPayload(null);
        }
        if (!payload.isObject()) {
            throw malformed(field + ".payload must be an object, got " + describe(payload));
        }
        return request.withPayload(normalised(request.jobType(), payload, field + ".payload"));
    }

    /**
     * The request held in {@code job} as {@link #readMember(JsonNode, String)} reads it, a broken rule answered with
     * {@code rule}, the code of the body that holds the job, rather than the job's own.
     */
    public JobRequest readMember(JsonNode job, String field, ApiErrorCode rule) {
        try {
            return readMember(job, field);
        } catch (ApiException e) {
            if (e.code() == ApiErrorCode.INVALID_JOB_REQUEST) {
                throw new ApiException(rule, e.getMessage());
            }
            throw e;
        }
    }

    /**
     * {@code request}, read by {@link #readMember}, as a schedule, hook or workflow stores the job it makes: without
     * the fields it does not give, and with what a later change of the service's defaults must not change made
     * explicit: its retries ({@code defaultRetryCount} when it names none) and its {@code tenant} unless the default.
     */
    public static ObjectNode template(JobRequest request, String tenant, int defaultRetryCount) {
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
        return tree;
    }

    /** The {@link #template} as the JSON text a schedule or hook stores. */
    public static String templateText(JobRequest request, String tenant, int defaultRetryCount) {
        try {
            return JsonColumns.mapper().writeValueAsString(template(request, tenant, defaultRetryCount));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("could not write a job template", e);
        }
    }

    /**
     * {@code payload} read as {@code type}'s record, then written back as a tree; failures named under {@code field}.
     */
    private JsonNode normalised(JobType type, JsonNode payload, String field) {
        ObjectReader typed = type == JobType.HTTP ? http : simulation;
        try {
            return Payloads.tree(typed.readValue(payload));
        } catch (JsonMappingException e) {
            throw mapping(e, field, () -> payload);
        } catch (IOException e) {
            throw malformed(field + " could not be read: " + e.getMessage());
        }
    }

    /** A 400 for a Jackson mapping failure, its field path under {@code prefix} within {@code root}. */
    private ApiException mapping(JsonMappingException e, String prefix, ThrowingSupplier root) {
        if (e instanceof InvalidTypeIdException typeId) {
            return unknownAction(typeId, prefix);
        }
        if (e instanceof InvalidFormatException format) {
            return invalidFormat(format, prefix);
        }
        if (e instanceof MismatchedInputException mismatch) {
            return mismatched(mismatch, prefix, root);
        }
        return otherMapping(e, prefix);
    }

    /** A source of the JSON tree a failure's path is relative to. */
    @FunctionalInterface
    private interface ThrowingSupplier {
        JsonNode get() throws IOException;
    }

    private static ApiException unknownAction(InvalidTypeIdException e, String prefix) {
        String path = BodyErrors.path(prefix, e.getPath());
        String field = (path.isEmpty() ? "" : path + ".") + Step.DISCRIMINATOR;
        if (e.getTypeId() == null) {
            return invalid(field + " is required; valid actions are " + VALID_ACTIONS);
        }
        return invalid(field + " '" + e.getTypeId() + "' is not a known action; valid actions are " + VALID_ACTIONS);
    }

    private static ApiException invalidFormat(InvalidFormatException e, String prefix) {
        String path = BodyErrors.path(prefix, e.getPath());
        Class<?> target = e.getTargetType();
        if (target != null && target.isEnum() && e.getValue() instanceof String value) {
            return invalid(path + " '" + value + "' is not a known value; valid values are "
                    + BodyErrors.enumValues(target));
        }
        return malformed(path + " must be " + BodyErrors.kindOf(target) + ", got " + describe(e.getValue()));
    }

    private static ApiException mismatched(MismatchedInputException e, String prefix, ThrowingSupplier root) {
        String path = BodyErrors.path(prefix, e.getPath());
        JsonNode actual = nodeAt(root, e.getPath());
        if (path.isEmpty()) {
            if (actual == null || actual.isObject()) {
                return malformed("request body is not valid JSON: " + BodyErrors.firstLine(e.getOriginalMessage())
                        + BodyErrors.location(e));
            }
            return malformed("request body must be a JSON object, got " + describe(actual));
        }
        return malformed(path + " must be " + BodyErrors.kindOf(e.getTargetType()) + ", got " + describe(actual));
    }

    /** The JSON value at {@code path} in {@code root}, to say what the client sent instead; null if unknown. */
    private static JsonNode nodeAt(ThrowingSupplier root, List<JsonMappingException.Reference> path) {
        try {
            JsonNode node = root.get();
            for (JsonMappingException.Reference ref : path) {
                if (node == null) {
                    return null;
                }
                node = ref.getFieldName() != null ? node.get(ref.getFieldName()) : node.get(ref.getIndex());
            }
            return node;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static ApiException otherMapping(JsonMappingException e, String prefix) {
        String path = BodyErrors.path(prefix, e.getPath());
        Throwable cause = e.getCause();
        if (cause instanceof InputCoercionException coercion) {
            return malformed(path + " is out of range: " + coercion.getOriginalMessage());
        }
        String reason = cause != null && cause.getMessage() != null ? cause.getMessage() : e.getOriginalMessage();
        return malformed((path.isEmpty() ? "request body" : path) + " is not valid: " + BodyErrors.firstLine(reason));
    }

    private static String describe(Object value) {
        if (value instanceof JsonNode node) {
            return BodyErrors.kind(node);
        }
        if (value == null) {
            return "null";
        }
        if (value instanceof String s) {
            return "the string \"" + ClientText.cut(s) + "\"";
        }
        if (value instanceof Number) {
            return "the number " + value;
        }
        if (value instanceof Boolean) {
            return "the boolean " + value;
        }
        return value.getClass().getSimpleName();
    }

    private static ApiException malformed(String message) {
        return new ApiException(ApiErrorCode.MALFORMED_JSON, message);
    }

    private static ApiException invalid(String message) {
        return new ApiException(ApiErrorCode.INVALID_JOB_REQUEST, message);
    }
}
