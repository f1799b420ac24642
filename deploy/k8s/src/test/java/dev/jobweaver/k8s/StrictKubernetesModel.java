package dev.jobweaver.k8s;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.cfg.MapperConfig;
import com.fasterxml.jackson.databind.introspect.Annotated;
import com.fasterxml.jackson.databind.introspect.JacksonAnnotationIntrospector;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Validates rendered manifests against the Kubernetes schema as fabric8's typed model encodes it, strictly: the
 * model's catch-all {@code additionalProperties} is switched off, so a misspelt or misplaced field is an error, and
 * so is a value of the wrong type (a number where the API wants a string, and the reverse). Only the API versions
 * listed here are accepted, so a removed or beta API version cannot slip in. Custom resources of the operators are
 * checked against the vendored schemas of {@link CustomResourceSchemas} and typed as {@link GenericKubernetesResource}.
 */
final class StrictKubernetesModel {

    /** apiVersion/kind to the model class that the API server would decode it into. */
    static final Map<String, Class<? extends HasMetadata>> KINDS = Map.ofEntries(
            Map.entry("v1/Namespace", Namespace.class),
            Map.entry("v1/ConfigMap", ConfigMap.class),
            Map.entry("v1/Secret", Secret.class),
            Map.entry("v1/Service", Service.class),
            Map.entry("v1/ServiceAccount", ServiceAccount.class),
            Map.entry("v1/PersistentVolumeClaim", PersistentVolumeClaim.class),
            Map.entry("apps/v1/Deployment", Deployment.class),
            Map.entry("apps/v1/StatefulSet", StatefulSet.class),
            Map.entry("batch/v1/Job", Job.class),
            Map.entry("autoscaling/v2/HorizontalPodAutoscaler", HorizontalPodAutoscaler.class),
            Map.entry("policy/v1/PodDisruptionBudget", PodDisruptionBudget.class),
            Map.entry("networking.k8s.io/v1/NetworkPolicy", NetworkPolicy.class),
            Map.entry("networking.k8s.io/v1/Ingress", Ingress.class));

    private static final YAMLMapper YAML = new YAMLMapper(new YAMLFactory());
    private static final ObjectMapper STRICT = strictMapper();
    private static final ObjectMapper LENIENT = new ObjectMapper();

    private StrictKubernetesModel() {
    }

    /** Thrown for a document that does not validate; the message names the document and the offending path. */
    static final class InvalidManifestException extends RuntimeException {
        InvalidManifestException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** The documents of a multi-document YAML stream as trees (empty documents skipped). */
    static List<JsonNode> documents(String yaml) {
        try (MappingIterator<JsonNode> iterator = YAML.readerFor(JsonNode.class).readValues(yaml)) {
            List<JsonNode> documents = new ArrayList<>();
            while (iterator.hasNextValue()) {
                JsonNode node = iterator.nextValue();
                if (node != null && !node.isNull() && !node.isMissingNode()) {
                    documents.add(node);
                }
            }
            return documents;
        } catch (IOException e) {
            throw new InvalidManifestException("not valid YAML: " + e.getMessage(), e);
        }
    }

    /** Every document of the stream, validated and typed. */
    static List<HasMetadata> parseAll(String yaml) {
        return documents(yaml).stream().map(StrictKubernetesModel::validate).toList();
    }

    /** One document, validated: known apiVersion and kind, a name, no unknown field, no wrongly typed value. */
    static HasMetadata validate(JsonNode document) {
        if (!document.isObject()) {
            throw new InvalidManifestException("a document is not a mapping: " + document, null);
        }
        String apiVersion = text(document, "apiVersion");
        String kind = text(document, "kind");
        String name = document.path("metadata").path("name").asText("");
        String label = (kind == null ? "?" : kind) + "/" + (name.isEmpty() ? "?" : name);
        if (apiVersion == null || apiVersion.isBlank()) {
            throw new InvalidManifestException(label + ": apiVersion is missing", null);
        }
        if (kind == null || kind.isBlank()) {
            throw new InvalidManifestException(label + ": kind is missing", null);
        }
        if (name.isBlank()) {
            throw new InvalidManifestException(label + ": metadata.name is missing", null);
        }
        Class<? extends HasMetadata> type = KINDS.get(apiVersion + "/" + kind);
        if (type == null) {
            return CustomResourceSchemas.schema(apiVersion, kind)
                    .map(schema -> validateCustomResource(schema, document, label + " (" + apiVersion + ")"))
                    .orElseThrow(() -> new InvalidManifestException(label + ": " + apiVersion + " " + kind
                            + " is not a known schema (known: " + KINDS.keySet().stream().sorted().toList()
                            + ", custom resources: " + CustomResourceSchemas.kinds() + ")", null));
        }
        try {
            return STRICT.treeToValue(document, type);
        } catch (JsonProcessingException e) {
            throw new InvalidManifestException(label + " (" + apiVersion + "): " + e.getOriginalMessage()
                    + " at " + path(e), e);
        }
    }

    /**
     * A custom resource against its operator's schema; its metadata, which the API server checks itself rather than by
     * the CRD's schema, against the typed model like every other object's.
     */
    private static GenericKubernetesResource validateCustomResource(JsonNode schema, JsonNode document, String label) {
        ObjectNode bareMetadata = ((ObjectNode) document).deepCopy();
        JsonNode metadata = bareMetadata.replace("metadata", bareMetadata.objectNode());
        List<String> violations = CustomResourceSchemas.violations(schema, bareMetadata);
        if (!violations.isEmpty()) {
            throw new InvalidManifestException(label + ": " + String.join("; ", violations), null);
        }
        try {
            STRICT.treeToValue(metadata, ObjectMeta.class);
            return LENIENT.treeToValue(document, GenericKubernetesResource.class);
        } catch (JsonProcessingException e) {
            throw new InvalidManifestException(label + ": " + e.getOriginalMessage() + " at metadata." + path(e), e);
        }
    }

    private static String text(JsonNode document, String field) {
        JsonNode node = document.get(field);
        return node == null || !node.isTextual() ? null : node.asText();
    }

    private static String path(JsonProcessingException e) {
        if (e instanceof com.fasterxml.jackson.databind.JsonMappingException mapping) {
            StringBuilder path = new StringBuilder();
            for (var reference : mapping.getPath()) {
                if (reference.getFieldName() != null) {
                    path.append('.').append(reference.getFieldName());
                } else if (reference.getIndex() >= 0) {
                    path.append('[').append(reference.getIndex()).append(']');
                }
            }
            return path.isEmpty() ? "(root)" : path.substring(path.charAt(0) == '.' ? 1 : 0);
        }
        return "(unknown path)";
    }

    private static ObjectMapper strictMapper() {
        JsonMapper mapper = JsonMapper.builder()
                .annotationIntrospector(new NoCatchAllIntrospector())
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .build();
        // The API server is strict about scalar types: "8080" is not an int, 8080 is not a string, true is not "true".
        for (LogicalType textual : List.of(LogicalType.Textual)) {
            mapper.coercionConfigFor(textual)
                    .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
        }
        for (LogicalType scalar : List.of(LogicalType.Integer, LogicalType.Float, LogicalType.Boolean)) {
            mapper.coercionConfigFor(scalar).setCoercion(CoercionInputShape.String, CoercionAction.Fail);
        }
        mapper.coercionConfigFor(LogicalType.Boolean).setCoercion(CoercionInputShape.Integer, CoercionAction.Fail);
        return mapper;
    }

    /**
     * fabric8's classes keep unknown fields in an {@code additionalProperties} map (a JSON any-setter). Ignoring that
     * any-setter, and any ignore-unknown flag, turns every unknown field into an error with its path.
     */
    private static final class NoCatchAllIntrospector extends JacksonAnnotationIntrospector {
        @Override
        public Boolean hasAnySetter(Annotated annotated) {
            return isModel(annotated) ? Boolean.FALSE : super.hasAnySetter(annotated);
        }

        @Override
        public JsonIgnoreProperties.Value findPropertyIgnoralByName(MapperConfig<?> config, Annotated annotated) {
            JsonIgnoreProperties.Value value = super.findPropertyIgnoralByName(config, annotated);
            return isModel(annotated) && value != null ? value.withoutIgnoreUnknown() : value;
        }

        private static boolean isModel(Annotated annotated) {
            Class<?> raw = annotated.getRawType();
            String owner = annotated instanceof com.fasterxml.jackson.databind.introspect.AnnotatedMember member
                    ? member.getDeclaringClass().getName()
                    : raw.getName();
            return owner.startsWith("io.fabric8.");
        }
    }
}
