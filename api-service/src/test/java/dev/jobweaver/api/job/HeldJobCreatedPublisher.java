package dev.jobweaver.api.job;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Tracer;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.inject.Alternative;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The real {@link JobCreatedPublisher}, whose hand-over to Kafka a test can hold back; enabled only by test profiles
 * that list it ({@code getEnabledAlternatives}). A singleton, not application-scoped: a client proxy would need a
 * no-args constructor, which the real publisher does not have.
 */
@Alternative
@Singleton
public class HeldJobCreatedPublisher extends JobCreatedPublisher {

    private final AtomicReference<CompletableFuture<Void>> gate =
            new AtomicReference<>(CompletableFuture.completedFuture(null));
    private final AtomicInteger waiting = new AtomicInteger();

    public HeldJobCreatedPublisher(JobApiConfig config, ObjectMapper mapper, OpenTelemetry openTelemetry,
                                   Tracer tracer, @Identifier("default-kafka-broker") Map<String, Object> kafkaConfig,
                                   MeterRegistry registry) {
        super(config, mapper, openTelemetry, tracer, kafkaConfig, registry);
    }

    @Override
    public Uni<List<PublishFailedException>> publishAll(List<Outgoing> batch) {
        CompletableFuture<Void> held = gate.get();
        if (held.isDone()) {
            return super.publishAll(batch);
        }
        waiting.incrementAndGet();
        io.vertx.core.Context context = Vertx.currentContext();
        Uni<Void> opened = Uni.createFrom().completionStage(held);
        if (context != null) {
            // handed over from the caller's context, as without the hold (the publisher answers on it)
            opened = opened.emitOn(command -> context.runOnContext(ignored -> command.run()));
        }
        return opened.invoke(waiting::decrementAndGet).chain(() -> super.publishAll(batch));
    }

    /** From now on publishes wait until {@link #release()}, before anything reaches the producer. */
    public void hold() {
        gate.set(new CompletableFuture<>());
    }

    /** Lets held publishes and later ones go. */
    public void release() {
        gate.get().complete(null);
    }

    /** Publishes being held now. */
    public int held() {
        return waiting.get();
    }
}
