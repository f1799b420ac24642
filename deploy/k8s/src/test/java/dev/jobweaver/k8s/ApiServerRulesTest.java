package dev.jobweaver.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The API server's rules for names that the typed schema cannot express: DNS-1123 object, container and volume
 * names, DNS-1035 Service names, IANA port names, label syntax.
 */
class ApiServerRulesTest {

    private static final Pattern DNS1123_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    private static final Pattern DNS1123_SUBDOMAIN = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    private static final Pattern DNS1035_LABEL = Pattern.compile("[a-z]([-a-z0-9]*[a-z0-9])?");
    private static final Pattern LABEL_VALUE = Pattern.compile("(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?");
    private static final Pattern LABEL_NAME = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");

    @ParameterizedTest
    @EnumSource(Overlay.class)
    void namesFollowTheApiServersRules(Overlay overlay) {
        List<String> violations = new ArrayList<>();
        for (HasMetadata object : overlay.objects()) {
            String name = object.getMetadata().getName();
            String what = object.getKind() + "/" + name;
            if (!isSubdomain(name)) {
                violations.add(what + ": not a DNS-1123 subdomain");
            }
            if (object instanceof Service && !(name.length() <= 63 && DNS1035_LABEL.matcher(name).matches())) {
                violations.add(what + ": a Service name must be a DNS-1035 label");
            }
            Optional.ofNullable(object.getMetadata().getLabels()).orElse(Map.of()).forEach((key, value) ->
                    labelViolation(key, value).ifPresent(v -> violations.add(what + ": " + v)));
        }
        for (Overlay.Workload workload : overlay.workloads()) {
            Optional.ofNullable(workload.template().getMetadata().getLabels()).orElse(Map.of()).forEach((key, value) ->
                    labelViolation(key, value).ifPresent(v -> violations.add(workload + " pod: " + v)));
            Optional.ofNullable(workload.pod().getVolumes()).orElse(List.of()).forEach(volume -> {
                if (!isLabel(volume.getName())) {
                    violations.add(workload + ": volume " + volume.getName() + " is not a DNS-1123 label");
                }
            });
            for (Container container : workload.allContainers()) {
                if (!isLabel(container.getName())) {
                    violations.add(workload + ": container " + container.getName() + " is not a DNS-1123 label");
                }
                for (ContainerPort port : Optional.ofNullable(container.getPorts()).orElse(List.of())) {
                    if (port.getName() != null && !isPortName(port.getName())) {
                        violations.add(workload + ": port name " + port.getName());
                    }
                    if (port.getContainerPort() < 1 || port.getContainerPort() > 65535) {
                        violations.add(workload + ": port " + port.getContainerPort());
                    }
                }
            }
        }
        for (Service service : overlay.all(Service.class)) {
            List<ServicePort> ports = service.getSpec().getPorts();
            if (ports.size() > 1 && ports.stream().anyMatch(p -> p.getName() == null)) {
                violations.add("Service/" + service.getMetadata().getName() + ": several ports need names");
            }
        }
        assertThat(violations).isEmpty();
    }

    @Test
    void recognisesBadNames() {
        assertThat(isSubdomain("Api_Service")).isFalse();
        assertThat(isPortName("a-very-long-port-name")).isFalse();
        assertThat(isPortName("8080")).isFalse();
        assertThat(isPortName("otlp--grpc")).isFalse();
        assertThat(isPortName("otlp-grpc")).isTrue();
        assertThat(labelViolation("app.kubernetes.io/name", "-bad")).isPresent();
        assertThat(labelViolation("app.kubernetes.io/name", "api-service")).isEmpty();
    }

    static boolean isLabel(String name) {
        return name != null && name.length() <= 63 && DNS1123_LABEL.matcher(name).matches();
    }

    static boolean isSubdomain(String name) {
        return name != null && name.length() <= 253 && DNS1123_SUBDOMAIN.matcher(name).matches();
    }

    /** IANA service name: at most 15 characters, lower-case letters, digits and single hyphens, one letter at least. */
    static boolean isPortName(String name) {
        return name.length() <= 15 && name.matches("[a-z0-9]([a-z0-9-]*[a-z0-9])?") && name.matches(".*[a-z].*")
                && !name.contains("--");
    }

    static Optional<String> labelViolation(String key, String value) {
        String name = key.contains("/") ? key.substring(key.indexOf('/') + 1) : key;
        String prefix = key.contains("/") ? key.substring(0, key.indexOf('/')) : null;
        if (prefix != null && !isSubdomain(prefix)) {
            return Optional.of("label prefix " + prefix);
        }
        if (name.length() > 63 || !LABEL_NAME.matcher(name).matches()) {
            return Optional.of("label name " + key);
        }
        if (value == null || value.length() > 63 || !LABEL_VALUE.matcher(value).matches()) {
            return Optional.of("label value " + key + "=" + value);
        }
        return Optional.empty();
    }
}
