package dev.jobweaver.worker.testing;

import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;

/** Keeps the spans the worker exports during tests (Quarkus composes every SpanExporter bean). */
@ApplicationScoped
public class CollectingSpanExporter implements SpanExporter {

    private static final int KEEP = 20_000;
    private final ConcurrentLinkedDeque<SpanData> spans = new ConcurrentLinkedDeque<>();

    @Override
    public CompletableResultCode export(Collection<SpanData> batch) {
        spans.addAll(batch);
        while (spans.size() > KEEP) {
            spans.pollFirst();
        }
        return CompletableResultCode.ofSuccess();
    }

    /** The spans of trace {@code traceId} exported so far. */
    public List<SpanData> trace(String traceId) {
        return spans.stream().filter(s -> s.getTraceId().equals(traceId)).toList();
    }

    @Override
    public CompletableResultCode flush() {
        return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode shutdown() {
        return CompletableResultCode.ofSuccess();
    }
}
