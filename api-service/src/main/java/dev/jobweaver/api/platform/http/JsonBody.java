package dev.jobweaver.api.platform.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.jobweaver.common.job.JobControlRules;
import java.io.IOException;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * What the request readers share: a body read strictly as a JSON tree, its members read by type, and the messages of
 * the 400s for both, so that every endpoint words the same mistake the same way.
 *
 * <p>Strict means: no trailing data, no duplicate key. A value of the wrong type is {@code API.MALFORMED_JSON}, named
 * by its field and what it should have been; a broken rule is the caller's own code ({@code rule} below). Unknown
 * properties are the caller's choice ({@link #checkFields}).
 */
public final class JsonBody {

    private final ObjectMapper strict;
    private final ObjectReader values;

    public JsonBody(ObjectMapper base) {
        ObjectMapper strict = base.copy();
        strict.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        strict.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION.mappedFeature());
        this.strict = strict;
        this.values = strict.readerFor(JsonNode.class);
    }

    // ---- the body ----

    /**
     * {@code body} as a JSON tree, null when it holds only whitespace; a 400 when it is empty or not JSON, its message
     * naming {@code example}, a body the endpoint takes.
     */
    public JsonNode parse(byte[] body, String example) {
        if (body == null || body.length == 0) {
            throw empty(example);
        }
        try {
            JsonNode root = strict.readTree(body);
            return root == null || root.isMissingNode() ? null : root;
        } catch (IOException e) {
            throw unreadable(e);
        }
    }

    /**
     * {@code body} as a JSON value, as {@link #parse} reads it but for a body of only whitespace, which is not JSON
     * here (as when a body is bound to a type) rather than empty.
     */
    public JsonNode parseValue(byte[] body, String example) {
        if (body == null || body.length == 0) {
            throw empty(example);
        }
        try {
            return values.readValue(body);
        } catch (IOException e) {
            throw unreadable(e);
        }
    }

    /** {@code body} as a JSON object; a 400 naming {@code example} when it is empty, blank, not JSON or no object. */
    public JsonNode parseObject(byte[] body, String example) {
        JsonNode root = parse(body, example);
        if (root == null) {
            throw empty(example);
        }
        if (!root.isObject()) {
            throw notAnObject(root, example);
        }
        return root;
    }

    /** {@code body} as a JSON object, null when it is empty or blank; a 400 naming {@code example} otherwise. */
    public JsonNode parseOptionalObject(byte[] body, String example) {
        if (body == null || body.length == 0) {
            return null;
        }
        JsonNode root = parse(body, example);
        if (root != null && !root.isObject()) {
            throw notAnObject(root, example);
        }
        return root;
    }

    /** The 400 for an empty body. */
    public static ApiException empty(String example) {
        return malformed("request body is empty; expected a JSON object such as " + example);
    }

    /** The 400 for a body that is JSON but no object. */
    public static ApiException notAnObject(JsonNode root) {
        return malformed("request body must be a JSON object, got " + describe(root));
    }

    /** The 400 for a body that is JSON but no object, naming a body the endpoint takes. */
    public static ApiException notAnObject(JsonNode root, String example) {
        return malformed("request body must be a JSON object such as " + example + ", got " + describe(root));
    }

    /** The 400 for a body that could not be read: not JSON (with where Jackson stopped), or not read at all. */
    public static ApiException unreadable(IOException e) {
        if (e instanceof JsonProcessingException json) {
            return malformed("request body is not valid JSON: " + json.getOriginalMessage() + location(json));
        }
        return malformed("request body could not be read: " + e.getMessage());
    }

    /** Where in the body Jackson stopped, {@code " (line 1, column 5)"}, or nothing when it does not say. */
    public static String location(JsonProcessingException e) {
        return e.getLocation() == null ? ""
                : " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")";
    }

    /**
     * A 400 with {@code rule} when {@code root} has a member not in {@code known}: for the bodies where a misspelt
     * field silently ignored would do harm. {@code fields} says which fields the body has.
     */
    public static void checkFields(JsonNode root, Set<String> known, ApiErrorCode rule, String fields) {
        for (Iterator<String> names = root.fieldNames(); names.hasNext(); ) {
            String field = names.next();
            if (!known.contains(field)) {
                throw new ApiException(rule, "unknown field '" + shown(field) + "'; " + fields);
            }
        }
    }

    // ---- members by type: null when absent or null, a 400 MALFORMED_JSON when of another type ----

    /** The string member {@code field}. */
    public static String text(JsonNode root, String field) {
        return text(root, field, field);
    }

    /** The string member {@code member}, named {@code field} in messages (e.g. {@code nodes[2].id}). */
    public static String text(JsonNode root, String member, String field) {
        JsonNode node = root.get(member);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isTextual()) {
            throw wrongType(field, "a string", node);
        }
        return node.textValue();
    }

    /** The string member as {@link #text(JsonNode, String, String)}; a 400 with {@code rule} when it holds NUL. */
    public static String storedText(JsonNode root, String member, String field, ApiErrorCode rule) {
        String value = text(root, member, field);
        if (value != null && value.indexOf(0) >= 0) {
            // PostgreSQL stores NUL in no text column
            throw new ApiException(rule, field + " must not contain the NUL character");
        }
        return value;
    }

    /** The integer member {@code field}, {@code min} to {@code max}; outside them a 400 with {@code rule}. */
    public static Integer integer(JsonNode root, String field, int min, int max, ApiErrorCode rule) {
        return integer(root, field, "an integer", min, max, rule);
    }

    /**
     * The integer member {@code field}, {@code min} to {@code max}; outside them, however large, a 400 with
     * {@code rule}; of another type, a 400 saying it must be {@code expected}.
     */
    public static Integer integer(JsonNode root, String field, String expected, int min, int max, ApiErrorCode rule) {
        JsonNode node = root.get(field);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isIntegralNumber()) {
            throw wrongType(field, expected, node);
        }
        if (!node.canConvertToInt() || node.intValue() < min || node.intValue() > max) {
            throw new ApiException(rule, field + " must be between " + min + " and " + max + ", got " + node.asText());
        }
        return node.intValue();
    }

    /** The object member {@code member}, named {@code field}; {@code hint} follows "must be an object" when not one. */
    public static JsonNode object(JsonNode root, String member, String field, String hint) {
        JsonNode node = root.get(member);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isObject()) {
            throw wrongType(field, "an object" + hint, node);
        }
        return node;
    }

    /** The array member {@code member}, named {@code field}; when not one, a 400 saying it must be {@code expected}. */
    public static JsonNode array(JsonNode root, String member, String field, String expected) {
        JsonNode node = root.get(member);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isArray()) {
            throw wrongType(field, expected, node);
        }
        return node;
    }

    /** The 400 for {@code field} holding {@code actual} where it must hold {@code expected} ("a string"). */
    public static ApiException wrongType(String field, String expected, JsonNode actual) {
        return malformed(field + " must be " + expected + ", got " + describe(actual));
    }

    // ---- rules several requests share: each broken one is added to problems, all of them answered at once ----

    /** A required name, 1 to {@code max} characters. */
    public static void checkName(String name, int max, List<String> problems) {
        if (name == null || name.isBlank()) {
            problems.add("name is required (1 to " + max + " characters)");
        } else if (name.length() > max) {
            problems.add("name must be at most " + max + " characters, got " + name.length());
        }
    }

    /** An optional tenant, which must be a tenant name. */
    public static void checkTenant(String tenant, List<String> problems) {
        if (tenant != null && !JobControlRules.TENANT.matcher(tenant).matches()) {
            problems.add("tenant must match " + JobControlRules.TENANT.pattern() + ", got '" + cut(tenant) + "'");
        }
    }

    /** {@code value} of {@code field} as a UUID in its canonical form; null, and a problem, when it is not one. */
    public static UUID uuid(String field, String value, List<String> problems) {
        if (UuidText.matches(value)) {
            return UUID.fromString(value);
        }
        problems.add(field + " must be a UUID such as " + UuidText.EXAMPLE + ", got '" + cut(value) + "'");
        return null;
    }

    /** The constant of {@code type} named {@code value}; {@code fallback} when none or unknown (then a problem). */
    public static <E extends Enum<E>> E enumValue(String field, String value, Class<E> type, E fallback,
                                                  List<String> problems) {
        if (value == null) {
            return fallback;
        }
        try {
            return Enum.valueOf(type, value);
        } catch (IllegalArgumentException e) {
            problems.add(unknownValue(field, value, type));
            return fallback;
        }
    }

    /** The message for {@code value} of {@code field} naming no constant of {@code type}, listing those it may name. */
    public static String unknownValue(String field, String value, Class<? extends Enum<?>> type) {
        return field + " '" + cut(value) + "' is not a known value; valid values are "
                + Arrays.stream(type.getEnumConstants()).map(Enum::name).collect(Collectors.joining(", "));
    }

    // ---- words ----

    /** What kind of JSON value {@code node} is, for "got ..." ("an array"); "nothing" for no node. */
    public static String describe(JsonNode node) {
        if (node == null) {
            return "nothing";
        }
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

    /** A client's text as a message quotes it: its first 40 characters. */
    public static String cut(String value) {
        return cut(value, 40);
    }

    /** A client's text as a message quotes it: its first {@code max} characters, "..." when there were more. */
    public static String cut(String value, int max) {
        return ClientText.cut(value, max);
    }

    /** A client's text as a message quotes it, cut, its control characters shown as {@code ?}. */
    public static String shown(String value) {
        return ClientText.shown(value);
    }

    /** A 400 {@code API.MALFORMED_JSON}: the body is not JSON, or a value in it is of the wrong type. */
    public static ApiException malformed(String message) {
        return new ApiException(ApiErrorCode.MALFORMED_JSON, message);
    }
}
