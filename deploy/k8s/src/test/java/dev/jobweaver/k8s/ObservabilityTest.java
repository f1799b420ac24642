package dev.jobweaver.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Service;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Prometheus finds the metrics, traces leave over OTLP to the configured endpoint, Jaeger receives them in dev. */
class ObservabilityTest {

    @ParameterizedTest
    @EnumSource(Overlay.class)
    void podsCarryPrometheusScrapeAnnotationsForTheirMetricsEndpoint(Overlay overlay) {
        for (var service : Overlay.SERVICES.entrySet()) {
            Map<String, String> annotations = overlay.workload(service.getKey()).template().getMetadata().getAnnotations();
            assertThat(annotations).as("annotations of %s", service.getKey())
                    .containsEntry("prometheus.io/scrape", "true")
                    .containsEntry("prometheus.io/port", String.valueOf(service.getValue()))
                    .containsEntry("prometheus.io/path", "/q/metrics");
        }
    }

    @ParameterizedTest
    @EnumSource(Overlay.class)
    void theOtlpEndpointComesFromConfiguration(Overlay overlay) {
        for (Overlay.Workload workload : overlay.serviceWorkloads()) {
            assertThat(workload.mainContainer().getEnv()).as("no literal OTLP endpoint in %s", workload)
                    .noneMatch(var -> var.getName().startsWith("QUARKUS_OTEL_"));
            Map<String, String> env = overlay.literalEnvironment(workload.mainContainer());
            URI endpoint = URI.create(env.get("QUARKUS_OTEL_EXPORTER_OTLP_ENDPOINT"));
            assertThat(endpoint.getScheme()).isIn("http", "https");
            assertThat(endpoint.getPort()).as("OTLP port of %s", workload).isIn(4317, 4318);
            assertThat(env).containsEntry("QUARKUS_OTEL_EXPORTER_OTLP_ENABLED", "true");
        }
    }

    @Test
    void devSendsTracesToItsJaegerAndExposesTheUi() {
        Map<String, String> env = Overlay.DEV.literalEnvironment(Overlay.DEV.workload("api-service").mainContainer());
        URI endpoint = URI.create(env.get("QUARKUS_OTEL_EXPORTER_OTLP_ENDPOINT"));
        Service collector = Overlay.DEV.get(Service.class, endpoint.getHost());
        assertThat(collector.getSpec().getPorts()).anySatisfy(p -> assertThat(p.getPort()).isEqualTo(endpoint.getPort()));
        assertThat(collector.getSpec().getSelector()).isEqualTo(Map.of("app.kubernetes.io/name", "jaeger"));
        Service ui = Overlay.DEV.get(Service.class, "jaeger-query");
        assertThat(ui.getSpec().getPorts()).anySatisfy(p -> assertThat(p.getPort()).isEqualTo(16686));
    }

    @Test
    void prodSendsTracesToAnExternalCollector() {
        Map<String, String> env = Overlay.PROD.literalEnvironment(Overlay.PROD.workload("api-service").mainContainer());
        String host = URI.create(env.get("QUARKUS_OTEL_EXPORTER_OTLP_ENDPOINT")).getHost();
        assertThat(Overlay.PROD.find(Service.class, host)).isEmpty();
    }
}
