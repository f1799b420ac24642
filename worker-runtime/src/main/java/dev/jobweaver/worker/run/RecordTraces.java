package dev.jobweaver.worker.run;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.smallrye.reactive.messaging.TracingMetadata;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import java.nio.charset.StandardCharsets;
import java.util.stream.StreamSupport;
import org.apache.kafka.common.header.Header;
import org.eclipse.microprofile.reactive.messaging.Message;

/** The trace a consumed record belongs to, so that the spans of handling it join the job's trace. */
public final class RecordTraces {

    private static final TextMapGetter<Iterable<Header>> HEADER_GETTER = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Iterable<Header> carrier) {
            return StreamSupport.stream(carrier.spliterator(), false).map(Header::key).toList();
        }

        @Override
        public String get(Iterable<Header> carrier, String key) {
            if (carrier == null) {
                return null;
            }
            String value = null;
            for (Header h : carrier) {
                if (h.key().equals(key) && h.value() != null) {
                    value = new String(h.value(), StandardCharsets.UTF_8);
                }
            }
            return value;
        }
    };

    private RecordTraces() {
    }

    /**
     * The parent context of {@code message}: the connector's tracing metadata when it holds a valid span, else the
     * record's own {@code traceparent} header, else the root (a new trace).
     */
    public static Context parentContext(Message<?> message) {
        return TracingMetadata.fromMessage(message)
                .map(TracingMetadata::getCurrentContext)
                .filter(c -> Span.fromContext(c).getSpanContext().isValid())
                .orElseGet(() -> {
                    IncomingKafkaRecordMetadata<?, ?> kafka =
                            message.getMetadata(IncomingKafkaRecordMetadata.class).orElse(null);
                    return kafka == null || kafka.getHeaders() == null ? Context.root()
                            : W3CTraceContextPropagator.getInstance().extract(Context.root(), kafka.getHeaders(),
                                    HEADER_GETTER);
                });
    }
}
