package dev.jobweaver.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The operators' custom resource definitions vendored under src/test/resources/crds (Strimzi, CloudNativePG; their
 * README names versions and licence), and a check of a custom resource against its version's openAPIV3Schema as the
 * API server applies it: types, required fields, enums, bounds, patterns, and no field the schema does not declare
 * (unless it preserves unknown fields). Only {@link #VERSION} is accepted: the manifests use the v1 APIs, the only ones
 * Strimzi 1.x still serves, so an operator upgrade needs no manifest change.
 */
final class CustomResourceSchemas {

    static final String VERSION = "v1";

    private static final Map<String, JsonNode> SCHEMAS = load();

    private CustomResourceSchemas() {
    }

    /** The schema of {@code apiVersion}/{@code kind} (e.g. "kafka.strimzi.io/v1", "KafkaTopic"), if one is vendored. */
    static Optional<JsonNode> schema(String apiVersion, String kind) {
        return Optional.ofNullable(SCHEMAS.get(apiVersion + "/" + kind));
    }

    /** The apiVersion/kind pairs with a vendored schema. */
    static List<String> kinds() {
        return List.copyOf(SCHEMAS.keySet());
    }

    /** What the API server would refuse in {@code document} under {@code schema}, each with its path; empty if valid. */
    static List<String> violations(JsonNode schema, JsonNode document) {
        List<String> violations = new ArrayList<>();
        check(schema, document, "", violations, true);
        return violations;
    }

    private static Map<String, JsonNode> load() {
        Path dir = Overlay.k8sDir().resolve("src/test/resources/crds");
        YAMLMapper yaml = new YAMLMapper();
        Map<String, JsonNode> schemas = new TreeMap<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                JsonNode crd = yaml.readTree(file.toFile());
                JsonNode spec = crd.path("spec");
                for (JsonNode version : spec.path("versions")) {
                    if (version.path("name").asText().equals(VERSION) && version.path("served").asBoolean()) {
                        schemas.put(spec.path("group").asText() + "/" + VERSION + "/" + spec.path("names").path("kind").asText(),
                                version.path("schema").path("openAPIV3Schema"));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the vendored CRDs in " + dir, e);
        }
        return schemas;
    }

    /**
     * @param closed whether fields the schema does not declare are errors; false inside a oneOf/anyOf branch, which
     *               only adds constraints to the properties its parent declares
     */
    private static void check(JsonNode schema, JsonNode node, String path, List<String> violations, boolean closed) {
        String at = path.isEmpty() ? "(root)" : path;
        if (node.isNull() && schema.path("nullable").asBoolean()) {
            return;
        }
        if (!hasType(schema, node)) {
            violations.add(at + ": " + describe(node) + " where the schema wants " + expectedType(schema));
            return;
        }
        if (schema.has("enum") && !contains(schema.get("enum"), node)) {
            violations.add(at + ": " + node + " is not one of " + schema.get("enum"));
        }
        if (schema.has("minimum") && node.isNumber() && node.asDouble() < schema.get("minimum").asDouble()) {
            violations.add(at + ": " + node + " is below the minimum " + schema.get("minimum"));
        }
        if (schema.has("maximum") && node.isNumber() && node.asDouble() > schema.get("maximum").asDouble()) {
            violations.add(at + ": " + node + " is above the maximum " + schema.get("maximum"));
        }
        if (schema.has("pattern") && node.isTextual()
                && !Pattern.compile(schema.get("pattern").asText()).matcher(node.asText()).find()) {
            violations.add(at + ": \"" + node.asText() + "\" does not match " + schema.get("pattern").asText());
        }
        for (JsonNode required : schema.path("required")) {
            if (node.isObject() && !node.has(required.asText())) {
                violations.add(at + ": required field " + required.asText() + " is missing");
            }
        }
        if (node.isObject()) {
            checkFields(schema, node, path, violations, closed);
        }
        if (node.isArray() && schema.has("items")) {
            for (int i = 0; i < node.size(); i++) {
                check(schema.get("items"), node.get(i), path + "[" + i + "]", violations, true);
            }
        }
        checkBranches(schema, node, at, violations);
    }

    private static void checkFields(JsonNode schema, JsonNode node, String path, List<String> violations, boolean closed) {
        JsonNode properties = schema.path("properties");
        JsonNode additional = schema.get("additionalProperties");
        boolean preserves = schema.path("x-kubernetes-preserve-unknown-fields").asBoolean();
        for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            String fieldPath = path.isEmpty() ? field.getKey() : path + "." + field.getKey();
            if (properties.has(field.getKey())) {
                check(properties.get(field.getKey()), field.getValue(), fieldPath, violations, true);
            } else if (additional != null && additional.isObject()) {
                check(additional, field.getValue(), fieldPath, violations, true);
            } else if (closed && !preserves && !(additional != null && additional.asBoolean())) {
                violations.add(fieldPath + ": unknown field (known: " + fieldNames(properties) + ")");
            }
        }
    }

    /** oneOf: exactly one branch holds; anyOf: at least one. */
    private static void checkBranches(JsonNode schema, JsonNode node, String at, List<String> violations) {
        for (String keyword : List.of("oneOf", "anyOf")) {
            if (!schema.has(keyword)) {
                continue;
            }
            int holding = 0;
            for (JsonNode branch : schema.get(keyword)) {
                List<String> branchViolations = new ArrayList<>();
                check(branch, node, at, branchViolations, false);
                holding += branchViolations.isEmpty() ? 1 : 0;
            }
            if (keyword.equals("oneOf") ? holding != 1 : holding == 0) {
                violations.add(at + ": " + holding + " of the " + keyword + " alternatives hold " + schema.get(keyword));
            }
        }
    }

    private static boolean hasType(JsonNode schema, JsonNode node) {
        if (schema.path("x-kubernetes-int-or-string").asBoolean()) {
            return node.isIntegralNumber() || node.isTextual();
        }
        return switch (schema.path("type").asText("")) {
            case "" -> true;
            case "object" -> node.isObject();
            case "array" -> node.isArray();
            case "string" -> node.isTextual();
            case "integer" -> node.isIntegralNumber();
            case "number" -> node.isNumber();
            case "boolean" -> node.isBoolean();
            default -> throw new IllegalStateException("schema type " + schema.get("type"));
        };
    }

    private static String expectedType(JsonNode schema) {
        return schema.path("x-kubernetes-int-or-string").asBoolean() ? "an integer or a string"
                : "type " + schema.path("type").asText();
    }

    private static String describe(JsonNode node) {
        return node.getNodeType().name().toLowerCase(java.util.Locale.ROOT) + " " + node;
    }

    private static boolean contains(JsonNode values, JsonNode node) {
        for (JsonNode value : values) {
            if (value.equals(node)) {
                return true;
            }
        }
        return false;
    }

    private static List<String> fieldNames(JsonNode properties) {
        List<String> names = new ArrayList<>();
        properties.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
