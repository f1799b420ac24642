package dev.jobweaver.api.platform.http;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.InvalidTypeIdException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.ConstraintViolationException;
import jakarta.validation.ElementKind;
import jakarta.validation.Path;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The 400s of a {@link Body}, worded as everywhere in the API: what Jackson could not bind is
 * {@code API.MALFORMED_JSON} naming the field by its JSON path ({@code roles[0] must be a string, got an integer}),
 * a broken rule is the body's own code naming the field and the constraint's message
 * ({@code maxRunning must be between 1 and 100000, got 0}). Only ever on a refusal, so reflection here costs the
 * accepted requests nothing.
 */
public final class BodyErrors {

    private static final String ANY_OBJECT = "{...}";
    /** How Jackson names the token it stood on: "(token `JsonToken.START_ARRAY`)". */
    /**
     * How Jackson names a value it would not take: "Cannot coerce String value ("10") to ...", "... no
     * String-argument constructor/factory method to deserialize from String value ('x')".
     */
    private static final Pattern COERCED = Pattern.compile(
            "(?:Cannot coerce|from) (empty String|String|Floating-point|Integer|Number|Boolean|Object|Array) value");
    private static final Pattern TOKEN = Pattern.compile("JsonToken\\.([A-Z_]+)");

    private BodyErrors() {
    }

    /** The 400 for an empty body, or one of only whitespace, of {@code body}. */
    public static ApiException empty(Class<?> body) {
        return malformed("request body is empty; expected a JSON object such as " + example(body));
    }

    /** The 400 for what Jackson could not bind to {@code body} (null when the endpoint's body is no {@link Body}). */
    public static ApiException unreadable(JsonProcessingException e, Class<?> body) {
        return unreadable(e, body, "");
    }

    /**
     * The 400 for what Jackson could not bind to a member of {@code body}, read on its own: every field named under
     * {@code prefix} ({@code payload.steps[0].durationMs} for the prefix {@code payload}); {@code ""} for the body.
     */
    public static ApiException unreadable(JsonProcessingException e, Class<?> body, String prefix) {
        if (e instanceof UnrecognizedPropertyException unknown) {
            String field = path(prefix, unknown.getPath());
            return new ApiException(rule(body), "unknown field '" + ClientText.shown(field) + "'; "
                    + (field.contains(".") || field.contains("[") ? "" : "the body has " + fields(body)));
        }
        if (e instanceof InvalidTypeIdException typeId) {
            return unknownSubtype(typeId, body, prefix);
        }
        if (e instanceof InvalidFormatException format && format.getTargetType() != null
                && format.getTargetType().isEnum() && format.getValue() instanceof String value) {
            return new ApiException(rule(body), path(prefix, format.getPath()) + " '" + ClientText.cut(value)
                    + "' is not a known value; valid values are " + enumValues(format.getTargetType()));
        }
        if (e instanceof MismatchedInputException mismatch) {
            return mismatched(mismatch, body, prefix);
        }
        if (e instanceof ValueInstantiationException value && value.getCause() instanceof IllegalArgumentException rule) {
            // a value type's own rule (a job type's name): well-formed JSON that breaks it
            return new ApiException(rule(body), path(prefix, value.getPath()) + " is not valid: " + rule.getMessage());
        }
        if (e instanceof JsonMappingException mapping) {
            String path = path(prefix, mapping.getPath());
            Throwable cause = mapping.getCause();
            if (cause instanceof InputCoercionException coercion) {
                return malformed(path + " is out of range: " + coercion.getOriginalMessage());
            }
            String reason = cause != null && cause.getMessage() != null ? cause.getMessage()
                    : mapping.getOriginalMessage();
            return malformed((path.isEmpty() ? "request body" : path) + " is not valid: " + firstLine(reason));
        }
        if (e instanceof InputCoercionException coercion) {
            return malformed("a number in the request body is out of range: " + coercion.getOriginalMessage());
        }
        return malformed("request body is not valid JSON: " + e.getOriginalMessage() + location(e));
    }

    /** The 400 for a body that could not be read at all (the connection failed while it was read). */
    public static ApiException unreadable(java.io.IOException e) {
        return malformed("request body could not be read: " + e.getMessage());
    }

    /** The 400 for {@code field} holding {@code actual} where it must hold {@code expected} ("a string"). */
    public static ApiException wrongType(String field, String expected, JsonNode actual) {
        return malformed(field + " must be " + expected + ", got " + kind(actual));
    }

    /** What kind of JSON value {@code node} is, for "got ..." ("an array"); "nothing" for no node. */
    public static String kind(JsonNode node) {
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

    /** The 400 for a body of {@code body} that is JSON but no object, {@code got} saying what it is ("an array"). */
    public static ApiException notAnObject(String got, Class<?> body) {
        return malformed("request body must be a JSON object, got " + got + "; expected one such as " + example(body));
    }

    /**
     * The 400 for the broken rules of a {@link Body}, with its code: every broken rule, ordered by field, each as
     * its field's path and the constraint's message; a rule of the whole body (a class-level constraint) as its
     * message alone.
     */
    public static ApiException violated(ConstraintViolationException e) {
        ApiErrorCode code = null;
        StringBuilder message = new StringBuilder();
        List<ConstraintViolation<?>> violations = e.getConstraintViolations().stream()
                .sorted((a, b) -> path(a).compareTo(path(b)))
                .toList();
        for (ConstraintViolation<?> violation : violations) {
            if (code == null) {
                code = rule(bodyOf(violation));
            }
            String path = path(violation);
            if (!message.isEmpty()) {
                message.append("; ");
            }
            message.append(path.isEmpty() ? violation.getMessage() : path + " " + violation.getMessage());
        }
        return new ApiException(code == null ? ApiErrorCode.INVALID_PARAMETER : code, message.toString());
    }

    /** The {@link Body} record among {@code types} (an endpoint's parameter types), or null when none is. */
    public static Class<?> bodyAmong(Class<?>[] types) {
        if (types != null) {
            for (Class<?> type : types) {
                if (type.isAnnotationPresent(Body.class)) {
                    return type;
                }
            }
        }
        return null;
    }

    private static ApiException mismatched(MismatchedInputException e, Class<?> body, String prefix) {
        String path = path(prefix, e.getPath());
        String got = got(e, body);
        if (path.isEmpty()) {
            if (got == null || "an object".equals(got) || e.getOriginalMessage().startsWith("Trailing token")) {
                // an object it is, but something after it is not JSON
                return malformed("request body is not valid JSON: " + firstLine(e.getOriginalMessage())
                        + location(e));
            }
            return notAnObject(got, body);
        }
        String expected = prefix.isEmpty() ? expected(body, e.getPath(), e.getTargetType())
                : kindOf(e.getTargetType());
        return malformed(path + " must be " + expected + ", got " + (got == null ? "of another type" : got));
    }

    /**
     * The 400 for a polymorphic member (a step) whose type property ({@code action}) is missing or names no subtype,
     * with the body's code: {@code payload.steps[1].action 'X' is not a known action; valid actions are SLEEP, ...}.
     */
    private static ApiException unknownSubtype(InvalidTypeIdException e, Class<?> body, String prefix) {
        Class<?> base = e.getBaseType() == null ? null : e.getBaseType().getRawClass();
        JsonTypeInfo info = base == null ? null : base.getAnnotation(JsonTypeInfo.class);
        JsonSubTypes subtypes = base == null ? null : base.getAnnotation(JsonSubTypes.class);
        String property = info == null || info.property().isEmpty() ? "type" : info.property();
        String valid = subtypes == null ? "" : "; valid " + property + "s are " + Arrays.stream(subtypes.value())
                .map(JsonSubTypes.Type::name).collect(Collectors.joining(", "));
        String path = path(prefix, e.getPath());
        String field = (path.isEmpty() ? "" : path + ".") + property;
        if (e.getTypeId() == null) {
            return new ApiException(rule(body), field + " is required" + valid);
        }
        return new ApiException(rule(body), field + " '" + ClientText.cut(e.getTypeId()) + "' is not a known "
                + property + valid);
    }

    /**
     * What the client sent where binding failed: the value Jackson refused to coerce, else the token it names. The
     * parser is closed by then, so its current token is gone. A {@link Body#showsValue} body names the refused value
     * itself ({@code the number 7}) where the others name its kind ({@code an integer}).
     */
    private static String got(MismatchedInputException e, Class<?> body) {
        if (e instanceof InvalidFormatException format) {
            Object value = format.getValue();
            if (value != null && showsValue(body)) {
                return shown(value);
            }
            if (value instanceof String) {
                return "a string";
            }
            if (value instanceof Boolean) {
                return "a boolean";
            }
            if (value instanceof Float || value instanceof Double || value instanceof java.math.BigDecimal) {
                return "a decimal number";
            }
            if (value instanceof Number) {
                return "an integer";
            }
        }
        if (e.getProcessor() instanceof JsonParser parser && parser.currentToken() != null) {
            return kind(parser.currentToken());
        }
        String message = String.valueOf(e.getOriginalMessage());
        Matcher coerced = COERCED.matcher(message);
        if (coerced.find()) {
            return switch (coerced.group(1)) {
                case "Floating-point" -> "a decimal number";
                case "Integer" -> "an integer";
                case "Number" -> "a number";
                case "Boolean" -> "a boolean";
                case "Object" -> "an object";
                case "Array" -> "an array";
                default -> "a string";
            };
        }
        Matcher named = TOKEN.matcher(message);
        if (named.find()) {
            try {
                return kind(JsonToken.valueOf(named.group(1)));
            } catch (IllegalArgumentException unknown) {
                return null;
            }
        }
        return null;
    }

    /** The field path of {@code references} under {@code prefix} ({@code ""} for the body itself). */
    private static String path(String prefix, List<JsonMappingException.Reference> references) {
        StringBuilder out = new StringBuilder(prefix);
        for (JsonMappingException.Reference ref : references) {
            if (ref.getFieldName() != null) {
                if (!out.isEmpty()) {
                    out.append('.');
                }
                out.append(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                out.append('[').append(ref.getIndex()).append(']');
            }
        }
        return out.toString();
    }

    /** {@code roles[1]} from a violation's path, without the method and parameter it starts with. */
    static String path(ConstraintViolation<?> violation) {
        StringBuilder out = new StringBuilder();
        for (Path.Node node : violation.getPropertyPath()) {
            ElementKind kind = node.getKind();
            if (kind == ElementKind.METHOD || kind == ElementKind.CONSTRUCTOR || kind == ElementKind.PARAMETER
                    || kind == ElementKind.CROSS_PARAMETER || kind == ElementKind.RETURN_VALUE) {
                continue;
            }
            if (node.isInIterable()) {
                Object at = node.getIndex() != null ? node.getIndex() : node.getKey();
                if (at != null) {
                    out.append('[').append(at).append(']');
                }
            }
            if (kind == ElementKind.PROPERTY) {
                if (!out.isEmpty()) {
                    out.append('.');
                }
                out.append(node.getName());
            }
        }
        return out.toString();
    }

    /** The body a violation is about: the {@link Body} among the endpoint's arguments, else the bean it is on. */
    private static Class<?> bodyOf(ConstraintViolation<?> violation) {
        Object[] arguments = violation.getExecutableParameters();
        if (arguments != null) {
            for (Object argument : arguments) {
                if (argument != null && argument.getClass().isAnnotationPresent(Body.class)) {
                    return argument.getClass();
                }
            }
        }
        Object leaf = violation.getLeafBean();
        return leaf == null ? null : leaf.getClass();
    }

    /**
     * What the member at {@code path} of {@code body} must hold: its {@link Expected} when it says, else the JSON
     * kind of {@code target}.
     */
    private static String expected(Class<?> body, List<JsonMappingException.Reference> path, Class<?> target) {
        Type type = body;
        Expected said = null;
        for (JsonMappingException.Reference ref : path) {
            said = null;
            if (type == null) {
                break;
            }
            if (ref.getFieldName() != null) {
                RecordComponent component = component(raw(type), ref.getFieldName());
                if (component == null) {
                    type = null;
                    continue;
                }
                said = component.getAnnotation(Expected.class);
                type = component.getGenericType();
            } else {
                type = type instanceof ParameterizedType generic && generic.getActualTypeArguments().length == 1
                        ? generic.getActualTypeArguments()[0] : null;
            }
        }
        return said != null ? said.value() : kindOf(target);
    }

    private static RecordComponent component(Class<?> type, String name) {
        if (type == null || !type.isRecord()) {
            return null;
        }
        for (RecordComponent component : type.getRecordComponents()) {
            if (component.getName().equals(name)) {
                return component;
            }
        }
        return null;
    }

    private static Class<?> raw(Type type) {
        if (type instanceof Class<?> c) {
            return c;
        }
        return type instanceof ParameterizedType generic && generic.getRawType() instanceof Class<?> c ? c : null;
    }

    /** How the 400 names a Java type's JSON kind: "an integer", "a string", "an array". */
    private static String kindOf(Class<?> type) {
        if (type == null) {
            return "of another type";
        }
        if (type == Long.class || type == Integer.class || type == long.class || type == int.class
                || type == Short.class || type == short.class || type == java.math.BigInteger.class) {
            return "an integer";
        }
        if (type == String.class) {
            return "a string";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (type.isEnum()) {
            return "one of " + enumValues(type);
        }
        if (type.isArray() || Collection.class.isAssignableFrom(type)) {
            return "an array";
        }
        if (Map.class.isAssignableFrom(type)) {
            return "an object";
        }
        return "an object";
    }

    /** How the 400 names what the client sent: "a string", "a decimal number", "null". */
    private static String kind(JsonToken token) {
        if (token == null) {
            return "nothing";
        }
        return switch (token) {
            case VALUE_STRING -> "a string";
            case VALUE_NUMBER_INT -> "an integer";
            case VALUE_NUMBER_FLOAT -> "a decimal number";
            case VALUE_TRUE, VALUE_FALSE -> "a boolean";
            case START_OBJECT, END_OBJECT, FIELD_NAME -> "an object";
            case START_ARRAY, END_ARRAY -> "an array";
            case VALUE_NULL -> "null";
            case VALUE_EMBEDDED_OBJECT, NOT_AVAILABLE -> "of another type";
        };
    }

    /** {@code value} as a {@link Body#showsValue} body names it: {@code the string "x"}, {@code the number 7}. */
    private static String shown(Object value) {
        if (value instanceof String text) {
            return "the string \"" + ClientText.cut(text) + "\"";
        }
        if (value instanceof Number) {
            return "the number " + value;
        }
        if (value instanceof Boolean) {
            return "the boolean " + value;
        }
        return value.getClass().getSimpleName();
    }

    private static boolean showsValue(Class<?> body) {
        Body said = body == null ? null : body.getAnnotation(Body.class);
        return said != null && said.showsValue();
    }

    private static ApiErrorCode rule(Class<?> body) {
        Body said = body == null ? null : body.getAnnotation(Body.class);
        return said == null ? ApiErrorCode.MALFORMED_JSON : said.rule();
    }

    private static String example(Class<?> body) {
        Body said = body == null ? null : body.getAnnotation(Body.class);
        return said == null ? ANY_OBJECT : said.example();
    }

    /** The body's fields in the record's order: "name, roles, expiresAt". */
    private static String fields(Class<?> body) {
        if (body == null || !body.isRecord()) {
            return "other fields";
        }
        return Arrays.stream(body.getRecordComponents()).map(RecordComponent::getName)
                .collect(Collectors.joining(", "));
    }

    private static String enumValues(Class<?> type) {
        return Arrays.stream(type.getEnumConstants()).map(String::valueOf).collect(Collectors.joining(", "));
    }

    /** Where in the body Jackson stopped, {@code " (line 1, column 5)"}, or nothing when it does not say. */
    private static String location(JsonProcessingException e) {
        return e.getLocation() == null ? ""
                : " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")";
    }

    private static String firstLine(String text) {
        if (text == null) {
            return "";
        }
        int newline = text.indexOf('\n');
        return newline < 0 ? text : text.substring(0, newline);
    }

    private static ApiException malformed(String message) {
        return new ApiException(ApiErrorCode.MALFORMED_JSON, message);
    }
}
