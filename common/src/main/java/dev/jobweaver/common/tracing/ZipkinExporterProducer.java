package dev.jobweaver.common.tracing;

import io.opentelemetry.exporter.zipkin.ZipkinSpanExporter;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.quarkus.arc.lookup.LookupIfProperty;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Exports every service's spans to a Zipkin server when {@code jobweaver.tracing.zipkin.enabled=true}.
 *
 * <p>Why it exists: on one machine without Docker there is no OpenTelemetry collector or Jaeger to receive OTLP,
 * but the Zipkin server runs from its executable jar; `./jobweaver up --traces` starts one and turns this on.
 * In a cluster, OTLP stays the exporter and this bean is never looked up. Quarkus' OpenTelemetry extension
 * composes all {@link SpanExporter} beans it can look up, and {@link LookupIfProperty} hides this one unless
 * enabled. It lives in {@code common} because it is wiring shared by the three services, not business logic.
 */
@Singleton
public class ZipkinExporterProducer {

    /** The switch; off unless set. */
    public static final String ENABLED = "jobweaver.tracing.zipkin.enabled";

    @Produces
    @Singleton
    @LookupIfProperty(name = ENABLED, stringValue = "true")
    SpanExporter zipkin(
            @ConfigProperty(name = "jobweaver.tracing.zipkin.endpoint",
                    defaultValue = "http://localhost:9411/api/v2/spans") String endpoint) {
        return ZipkinSpanExporter.builder().setEndpoint(endpoint).build();
    }
}
