package dev.jobweaver.common.job;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A job's payload as it travels: a JSON object whose shape its {@link JobType} defines ({@link JobPayload} for
 * {@code SIMULATION}, {@link HttpCallPayload} for {@code HTTP}). Events carry it as a tree so that the scheduler
 * stores and forwards it without knowing the type; the API (to answer 400) and the worker (to run it) read it as
 * the type's record, and every consumer checks it with {@link #check}.
 */
public final class Payloads {

    /** The HTTP methods an HTTP job may use. */
    public static final Set<String> HTTP_METHODS = Set.of("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS");
    /** The most headers an HTTP job may send. */
    public static final int MAX_HTTP_HEADERS = 50;
    /** The longest request body an HTTP job may send (the API's whole request is at most 64 KiB by default). */
    public static final int MAX_HTTP_BODY = 1_048_576;
    /** The longest request timeout an HTTP job may ask for: 1 h. */
    public static final long MAX_HTTP_TIMEOUT_MS = 3_600_000;
    /**
     * A payload's field, of any job type, that carries data for the job rather than instructions: an inbound hook's
     * body, or a workflow run's input for each of its nodes' jobs. Any JSON; handlers may use it (an HTTP job without a
     * {@code body} sends it).
     */
    public static final String INPUT = "input";
    /**
     * A payload's field, of any job type, set on the job of a workflow node: the results of the nodes it depends on,
     * an object by node id.
     */
    public static final String RESULTS = "results";

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true);

    private Payloads() {
    }

    /**
     * {@code payload} (a type's payload record) as the tree a reader of its JSON gets: written and read back, so that
     * numbers take the node types parsing gives them and trees compare equal across the wire.
     */
    public static JsonNode tree(Object payload) {
        if (payload == null) {
            return null;
        }
        try {
            return MAPPER.readTree(MAPPER.writeValueAsBytes(payload));
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("payload cannot be written as JSON: " + e.getMessage(), e);
        }
    }

    /** A SIMULATION payload's steps, read from its tree. */
    public static JobPayload simulation(JsonNode payload) {
        return read(payload, JobPayload.class);
    }

    /** An HTTP payload, read from its tree. */
    public static HttpCallPayload http(JsonNode payload) {
        return read(payload, HttpCallPayload.class);
    }

    /**
     * {@code payload} read as {@code type}, leaving out its {@link #INPUT} and {@link #RESULTS}, which every type may
     * carry; IllegalArgumentException naming the problem if it does not fit.
     */
    public static <T> T read(JsonNode payload, Class<T> type) {
        try {
            JsonNode instructions = payload;
            if (payload != null && (payload.has(INPUT) || payload.has(RESULTS))) {
                ObjectNode copy = ((ObjectNode) payload).deepCopy();
                copy.remove(INPUT);
                copy.remove(RESULTS);
                instructions = copy;
            }
            return MAPPER.treeToValue(instructions, type);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e.getOriginalMessage(), e);
        }
    }

    /**
     * Adds to {@code out} what {@code payload} breaks for a job of {@code type}, each problem naming its field under
     * {@code payload}, stopping once {@code out} holds {@code maxReported} entries.
     */
    public static void check(JobType type, JsonNode payload, StepRules.Limits limits, List<String> out,
                             int maxReported) {
        if (payload == null || payload.isNull()) {
            out.add("payload is required");
            return;
        }
        if (!payload.isObject()) {
            out.add("payload must be a JSON object");
            return;
        }
        JsonNode results = payload.get(RESULTS);
        if (results != null && !results.isObject()) {
            out.add("payload.results must be an object of results by node id");
        }
        if (type == null) {
            return;
        }
        if (type.equals(JobType.SIMULATION)) {
            JobPayload simulation = readOrReport(payload, JobPayload.class, "a SIMULATION", out);
            if (simulation != null) {
                StepRules.check("payload.steps", simulation.steps(), limits, out, maxReported);
            }
        } else if (type.equals(JobType.HTTP)) {
            HttpCallPayload http = readOrReport(payload, HttpCallPayload.class, "an HTTP", out);
            if (http != null) {
                checkHttp(http, limits, out);
            }
        } else {
            // another team's type: its handler reads the payload; the platform only has to be able to store it
            String nul = nulAt(payload, "payload");
            if (nul != null) {
                out.add(nul + " must not contain the NUL character (U+0000), which the database cannot store");
            }
        }
    }

    /** The path of the first string or field name in {@code node} holding U+0000, or null if none does. */
    static String nulAt(JsonNode node, String path) {
        if (node.isTextual()) {
            return StepRules.hasNul(node.textValue()) ? path : null;
        }
        if (node.isObject()) {
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                if (StepRules.hasNul(field.getKey())) {
                    return "a field name in " + path;
                }
                String inner = nulAt(field.getValue(), path + "." + field.getKey());
                if (inner != null) {
                    return inner;
                }
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                String inner = nulAt(node.get(i), path + "[" + i + "]");
                if (inner != null) {
                    return inner;
                }
            }
        }
        return null;
    }

    /** {@code payload} read as {@code type}, or null after adding to {@code out} why it is not {@code kind} payload. */
    private static <T> T readOrReport(JsonNode payload, Class<T> type, String kind, List<String> out) {
        try {
            return read(payload, type);
        } catch (IllegalArgumentException e) {
            out.add("payload is not " + kind + " payload: " + e.getMessage());
            return null;
        }
    }

    /** The payload's {@link #INPUT}, or null. */
    public static JsonNode input(JsonNode payload) {
        JsonNode input = payload == null ? null : payload.get(INPUT);
        return input == null || input.isMissingNode() ? null : input;
    }

    /** The payload's {@link #RESULTS}, or null. */
    public static JsonNode results(JsonNode payload) {
        JsonNode results = payload == null ? null : payload.get(RESULTS);
        return results == null || results.isMissingNode() ? null : results;
    }

    private static void checkHttp(HttpCallPayload http, StepRules.Limits limits, List<String> out) {
        if (http.method() == null || http.method().isBlank()) {
            out.add("payload.method is required, one of " + String.join(", ", sorted(HTTP_METHODS)));
        } else if (!HTTP_METHODS.contains(http.method().toUpperCase(Locale.ROOT))) {
            out.add("payload.method must be one of " + String.join(", ", sorted(HTTP_METHODS)) + ", got '"
                    + (http.method().length() > 20 ? http.method().substring(0, 20) + "..." : http.method()) + "'");
        }
        StepRules.url("payload.url", http.url(), limits.maxUrlLength(), out);
        Map<String, String> headers = http.headers();
        if (headers != null) {
            if (headers.size() > MAX_HTTP_HEADERS) {
                out.add("payload.headers must hold at most " + MAX_HTTP_HEADERS + " headers, got " + headers.size());
            }
            for (Map.Entry<String, String> header : headers.entrySet()) {
                String name = header.getKey();
                if (name.isEmpty() || !name.chars().allMatch(Payloads::isTokenChar)) {
                    out.add("payload.headers has an invalid header name '" + name + "'");
                } else if (header.getValue() == null || header.getValue().chars().anyMatch(c -> c == '\r' || c == '\n' || c == 0)) {
                    out.add("payload.headers." + name + " must be a string without line breaks");
                }
            }
        }
        if (http.body() != null && http.body().length() > MAX_HTTP_BODY) {
            out.add("payload.body must be at most " + MAX_HTTP_BODY + " characters, got " + http.body().length());
        } else if (StepRules.hasNul(http.body())) {
            out.add("payload.body must not contain the NUL character (U+0000), which the database cannot store");
        }
        if (http.expectedStatus() != null) {
            if (http.expectedStatus().isEmpty() || http.expectedStatus().size() > 50) {
                out.add("payload.expectedStatus must hold 1 to 50 statuses, got " + http.expectedStatus().size());
            }
            for (Integer status : http.expectedStatus()) {
                if (status == null || status < 100 || status > 599) {
                    out.add("payload.expectedStatus entries must be between 100 and 599, got " + status);
                    break;
                }
            }
        }
        if (http.timeoutMs() != null && (http.timeoutMs() < 1 || http.timeoutMs() > MAX_HTTP_TIMEOUT_MS)) {
            out.add("payload.timeoutMs must be between 1 and " + MAX_HTTP_TIMEOUT_MS + ", got " + http.timeoutMs());
        }
    }

    private static boolean isTokenChar(int c) {
        return c > 32 && c < 127 && "()<>@,;:\\\"/[]?={}".indexOf(c) < 0;
    }

    private static List<String> sorted(Set<String> values) {
        return values.stream().sorted().toList();
    }
}
