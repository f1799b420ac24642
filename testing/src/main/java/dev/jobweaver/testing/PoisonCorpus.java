package dev.jobweaver.testing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ContainerNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Malformed and hostile records for a consumed topic, made from one good event: what every consumer's poison test
 * produces next to good records. Every record of the corpus must be quarantined; none may stall its partition.
 *
 * <h2>What it holds</h2>
 * <ul>
 *   <li>Values that are no event at all: empty, not JSON, truncated JSON, JSON {@code null}, an array, a string,
 *       binary garbage, 1 MiB of garbage (less 1 KiB, to fit Kafka's default record limit).</li>
 *   <li>For every field of the good event, nested ones included: each required field missing; a wrong type (an
 *       object where a scalar belongs); a string longer than any column or bound (70,000 characters); a negative and
 *       a huge number; an invalid UUID; an invalid and an out-of-range timestamp; an unknown enum value.</li>
 *   <li>The good value under a null key and under a key that is not its jobId.</li>
 * </ul>
 * Fields are recognised by their value in the good event: a UUID, an ISO instant, an upper-case word (an enum), a
 * number, other strings.
 */
public final class PoisonCorpus {

    /** One hostile record: what it is, its key and its value. */
    public record Poison(String name, String key, byte[] value) {
    }

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Pattern UUID_VALUE = Pattern.compile("[0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}");
    private static final Pattern INSTANT_VALUE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}T.*Z");
    private static final Pattern ENUM_VALUE = Pattern.compile("[A-Z][A-Z_]+");
    /** The size of the corpus's largest value: 1 MiB less 1 KiB, so that the record fits Kafka's default limit. */
    public static final int HUGE = 1024 * 1024 - 1024;
    /** Longer than any string column or bound of the platform. */
    static final int OVERLONG = 70_000;

    private PoisonCorpus() {
    }

    /**
     * The corpus made from {@code goodJson}, a valid event whose record key is {@code key}.
     *
     * @param required the fields (paths such as {@code jobId} or {@code payload.steps[0].action}) an event must have
     */
    public static List<Poison> of(String goodJson, String key, Set<String> required) {
        JsonNode good = parse(goodJson);
        List<Poison> out = new ArrayList<>();
        out.add(new Poison("empty value", key, new byte[0]));
        out.add(text("not JSON", key, "this is not JSON"));
        out.add(text("truncated JSON", key, goodJson.substring(0, goodJson.length() / 2)));
        out.add(text("JSON null", key, "null"));
        out.add(text("JSON array", key, "[" + goodJson + "]"));
        out.add(text("JSON string", key, "\"hello\""));
        byte[] garbage = new byte[256];
        for (int i = 0; i < garbage.length; i++) {
            garbage[i] = (byte) (i * 31 + 7);
        }
        out.add(new Poison("binary garbage", key, garbage));
        // As large as a topic with Kafka's default limit (1,048,588 bytes a batch) takes, with the key and overhead.
        byte[] huge = new byte[HUGE];
        Arrays.fill(huge, (byte) 'x');
        out.add(new Poison("1 MiB value", key, huge));
        out.add(text("null key", null, goodJson));
        out.add(text("key is not the jobId", "not-the-job-id", goodJson));
        for (String path : leaves(good, "")) {
            JsonNode value = at(good, path);
            if (required.contains(path)) {
                out.add(mutated(good, key, path, "missing", null));
            }
            out.add(mutated(good, key, path, "wrong type (object)", MAPPER.createObjectNode().put("x", 1)));
            if (value.isNumber()) {
                out.add(mutated(good, key, path, "negative", MAPPER.getNodeFactory().numberNode(-1)));
                out.add(mutated(good, key, path, "huge", MAPPER.getNodeFactory().numberNode(
                        new BigInteger("100000000000000000000000000000"))));
            } else if (value.isTextual()) {
                String text = value.asText();
                if (UUID_VALUE.matcher(text).matches()) {
                    out.add(mutated(good, key, path, "invalid UUID", MAPPER.getNodeFactory().textNode("not-a-uuid")));
                } else if (INSTANT_VALUE.matcher(text).matches()) {
                    out.add(mutated(good, key, path, "invalid timestamp",
                            MAPPER.getNodeFactory().textNode("yesterday")));
                    out.add(mutated(good, key, path, "timestamp out of range",
                            MAPPER.getNodeFactory().textNode("+100000-01-01T00:00:00Z")));
                } else if (ENUM_VALUE.matcher(text).matches()) {
                    // with spaces: no enum's value, and no name either (a job type is any well-formed name)
                    out.add(mutated(good, key, path, "unknown enum value",
                            MAPPER.getNodeFactory().textNode("NOT A " + text)));
                } else {
                    out.add(mutated(good, key, path, "over-long string",
                            MAPPER.getNodeFactory().textNode("x".repeat(OVERLONG))));
                }
            }
        }
        return out;
    }

    private static Poison text(String name, String key, String value) {
        return new Poison(name, key, value.getBytes(StandardCharsets.UTF_8));
    }

    private static Poison mutated(JsonNode good, String key, String path, String what, JsonNode replacement) {
        JsonNode copy = good.deepCopy();
        int dot = Math.max(path.lastIndexOf('.'), path.lastIndexOf('['));
        String parentPath = dot < 0 ? "" : path.substring(0, dot);
        ContainerNode<?> parent = (ContainerNode<?>) (parentPath.isEmpty() ? copy : at(copy, parentPath));
        if (parent instanceof ObjectNode object) {
            String field = dot < 0 ? path : path.substring(dot + 1);
            if (replacement == null) {
                object.remove(field);
            } else {
                object.set(field, replacement);
            }
        } else {
            int index = Integer.parseInt(path.substring(dot + 1, path.length() - 1));
            ((ArrayNode) parent).set(index, replacement);
        }
        try {
            return new Poison(path + ": " + what, key, MAPPER.writeValueAsBytes(copy));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The paths of every scalar of {@code node}: {@code a}, {@code a.b}, {@code a.list[0].c}. */
    static List<String> leaves(JsonNode node, String prefix) {
        List<String> out = new ArrayList<>();
        if (node.isObject()) {
            node.properties().forEach(e -> out.addAll(leaves(e.getValue(),
                    prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey())));
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                out.addAll(leaves(node.get(i), prefix + "[" + i + "]"));
            }
        } else if (!node.isNull()) {
            out.add(prefix);
        }
        return out;
    }

    /** The node at {@code path}. */
    static JsonNode at(JsonNode root, String path) {
        JsonNode node = root;
        for (String part : path.replace("[", ".[").split("\\.")) {
            if (part.isEmpty()) {
                continue;
            }
            node = part.startsWith("[") ? node.get(Integer.parseInt(part.substring(1, part.length() - 1)))
                    : node.get(part);
        }
        return node;
    }

    private static JsonNode parse(String json) {
        try {
            return MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("the good event is not JSON: " + e.getOriginalMessage(), e);
        }
    }
}
