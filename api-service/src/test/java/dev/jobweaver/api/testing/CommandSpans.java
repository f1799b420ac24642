package dev.jobweaver.api.testing;

import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.data.SpanData;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Keeps the ended spans of job commands (Quarkus adds every SpanProcessor bean to the tracer provider), so that a test
 * can see which trace they joined. Only those few names, so it holds little in a test JVM.
 */
@ApplicationScoped
public class CommandSpans implements SpanProcessor {

    private static final Set<String> NAMES = Set.of("cancel job", "delete job", "job-commands publish");

    private final List<SpanData> ended = new CopyOnWriteArrayList<>();

    /** The ended spans kept so far. */
    public List<SpanData> ended() {
        return List.copyOf(ended);
    }

    @Override
    public void onStart(Context parentContext, ReadWriteSpan span) {
    }

    @Override
    public boolean isStartRequired() {
        return false;
    }

    @Override
    public void onEnd(ReadableSpan span) {
        if (NAMES.contains(span.getName())) {
            ended.add(span.toSpanData());
        }
    }

    @Override
    public boolean isEndRequired() {
        return true;
    }

    @Override
    public CompletableResultCode shutdown() {
        return CompletableResultCode.ofSuccess();
    }
}
