package dev.jobweaver.k8s;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/** A kustomization of deploy/k8s, rendered once per test JVM with kubectl and parsed strictly. */
enum Overlay {
    BASE("base"),
    DEV("overlays/dev"),
    DEV_JVM("overlays/dev-jvm"),
    PROD("overlays/prod"),
    PROD_OPERATORS("overlays/prod-operators");

    /** The three services and their HTTP ports (SPEC.md). */
    static final Map<String, Integer> SERVICES = Map.of(
            "api-service", 8080,
            "scheduler-service", 8081,
            "worker-service", 8082);

    /** Each service's database (SPEC.md). */
    static final Map<String, String> DATABASES = Map.of(
            "api-service", "jobweaver_api",
            "scheduler-service", "jobweaver_scheduler",
            "worker-service", "jobweaver_worker");

    /** The overlays that run prod's services, sizing and probes: prod and prod on operators. */
    static final Set<Overlay> PRODUCTION = EnumSet.of(PROD, PROD_OPERATORS);

    /** The overlays a user applies. */
    static final List<Overlay> DEPLOYABLE = List.of(DEV, DEV_JVM, PROD, PROD_OPERATORS);

    private static final Map<Overlay, String> RENDERED = new ConcurrentHashMap<>();
    private static final Map<Overlay, List<HasMetadata>> PARSED = new ConcurrentHashMap<>();

    private final String relativePath;

    Overlay(String relativePath) {
        this.relativePath = relativePath;
    }

    /** The folder holding deploy/k8s (the module's base directory). */
    static Path k8sDir() {
        Path dir = Path.of(System.getProperty("jobweaver.k8s.dir", "")).toAbsolutePath();
        if (!Files.isDirectory(dir.resolve("base"))) {
            throw new IllegalStateException("cannot find deploy/k8s/base from " + dir
                    + " (set -Djobweaver.k8s.dir)");
        }
        return dir;
    }

    /** The repository's root folder. */
    static Path repoDir() {
        return k8sDir().resolve("../..").normalize();
    }

    Path dir() {
        return k8sDir().resolve(relativePath);
    }

    /**
     * `kubectl kustomize` of prod with components/{@code component}, through a kustomization of its own under target
     * (a Component does not render alone); {@code more} is added to that kustomization as it stands.
     */
    static String prodWith(String component, String more) throws IOException {
        Path dir = k8sDir().resolve("target/" + component + "-render");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("kustomization.yaml"), """
                apiVersion: kustomize.config.k8s.io/v1beta1
                kind: Kustomization
                resources:
                  - ../../overlays/prod
                components:
                  - ../../components/%s
                """.formatted(component) + more);
        return Kubectl.kustomize(dir);
    }

    String relativePath() {
        return relativePath;
    }

    /** `kubectl kustomize` output. */
    String yaml() {
        return RENDERED.computeIfAbsent(this, overlay -> Kubectl.kustomize(overlay.dir()));
    }

    /** Every rendered object, validated against the schema. */
    List<HasMetadata> objects() {
        return PARSED.computeIfAbsent(this, overlay -> StrictKubernetesModel.parseAll(overlay.yaml()));
    }

    <T extends HasMetadata> List<T> all(Class<T> type) {
        return objects().stream().filter(type::isInstance).map(type::cast).toList();
    }

    <T extends HasMetadata> Optional<T> find(Class<T> type, String name) {
        return all(type).stream().filter(object -> object.getMetadata().getName().equals(name)).findFirst();
    }

    <T extends HasMetadata> T get(Class<T> type, String name) {
        return find(type, name).orElseThrow(() -> new AssertionError(
                this + " renders no " + type.getSimpleName() + " named " + name));
    }

    /** The custom resources of {@code kind} (an operator's, validated against its vendored schema). */
    List<GenericKubernetesResource> customResources(String kind) {
        return all(GenericKubernetesResource.class).stream().filter(resource -> resource.getKind().equals(kind)).toList();
    }

    /** A ConfigMap by the name it has before kustomize appends its content hash. */
    ConfigMap configMap(String generatorName) {
        return all(ConfigMap.class).stream()
                .filter(map -> map.getMetadata().getName().matches(java.util.regex.Pattern.quote(generatorName)
                        + "(-[a-z0-9]{10})?"))
                .findFirst()
                .orElseThrow(() -> new AssertionError(this + " renders no ConfigMap " + generatorName));
    }

    /** Something that runs pods. */
    record Workload(String kind, String name, PodTemplateSpec template, Integer replicas) {
        PodSpec pod() {
            return template.getSpec();
        }

        Map<String, String> podLabels() {
            return Optional.ofNullable(template.getMetadata().getLabels()).orElse(Map.of());
        }

        /** Init containers first, then the main ones. */
        List<Container> allContainers() {
            List<Container> containers = new ArrayList<>(Optional.ofNullable(pod().getInitContainers()).orElse(List.of()));
            containers.addAll(pod().getContainers());
            return containers;
        }

        Container mainContainer() {
            return pod().getContainers().stream().filter(c -> c.getName().equals(name)).findFirst()
                    .orElse(pod().getContainers().getFirst());
        }

        @Override
        public String toString() {
            return kind + "/" + name;
        }
    }

    List<Workload> workloads() {
        List<Workload> workloads = new ArrayList<>();
        for (HasMetadata object : objects()) {
            switch (object) {
                case Deployment d -> workloads.add(new Workload("Deployment", d.getMetadata().getName(),
                        d.getSpec().getTemplate(), d.getSpec().getReplicas()));
                case StatefulSet s -> workloads.add(new Workload("StatefulSet", s.getMetadata().getName(),
                        s.getSpec().getTemplate(), s.getSpec().getReplicas()));
                case Job j -> workloads.add(new Workload("Job", j.getMetadata().getName(),
                        j.getSpec().getTemplate(), 1));
                default -> {
                }
            }
        }
        return workloads;
    }

    Workload workload(String name) {
        return workloads().stream().filter(w -> w.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError(this + " renders no workload " + name));
    }

    /** The Deployments of the three services. */
    List<Workload> serviceWorkloads() {
        return SERVICES.keySet().stream().sorted().map(this::workload).toList();
    }

    /** The environment a container gets from its ConfigMaps (envFrom) and its literal env values. */
    Map<String, String> literalEnvironment(Container container) {
        Map<String, String> env = new HashMap<>();
        Stream.ofNullable(container.getEnvFrom()).flatMap(List::stream)
                .filter(source -> source.getConfigMapRef() != null)
                .forEach(source -> {
                    ConfigMap map = get(ConfigMap.class, source.getConfigMapRef().getName());
                    String prefix = Optional.ofNullable(source.getPrefix()).orElse("");
                    Optional.ofNullable(map.getData()).orElse(Map.of())
                            .forEach((key, value) -> env.put(prefix + key, value));
                });
        Stream.ofNullable(container.getEnv()).flatMap(List::stream)
                .filter(var -> var.getValueFrom() == null)
                .forEach(var -> env.put(var.getName(), var.getValue()));
        return env;
    }
}
