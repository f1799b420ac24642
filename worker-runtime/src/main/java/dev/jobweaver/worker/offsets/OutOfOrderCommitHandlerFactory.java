package dev.jobweaver.worker.offsets;

import dev.jobweaver.worker.WorkerConfig;
import dev.jobweaver.worker.run.RunDispatcher;
import io.quarkus.arc.Unremovable;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.reactive.messaging.kafka.KafkaConnectorIncomingConfiguration;
import io.smallrye.reactive.messaging.kafka.KafkaConsumer;
import io.smallrye.reactive.messaging.kafka.commit.KafkaCommitHandler;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Default;
import jakarta.inject.Inject;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * Creates an {@link OutOfOrderCommitHandler} for each Kafka consumer of a channel whose {@code commit-strategy} is
 * {@value OutOfOrderCommitHandler#STRATEGY}, and keeps them for health and metrics.
 */
@ApplicationScoped
@Unremovable
@Default // also injectable without the qualifier, by health and tests
@Identifier(OutOfOrderCommitHandler.STRATEGY)
public class OutOfOrderCommitHandlerFactory implements KafkaCommitHandler.Factory {

    @Inject WorkerConfig config;
    @Inject OffsetMetrics metrics;
    @Inject RunDispatcher dispatcher;
    private final List<OutOfOrderCommitHandler> handlers = new CopyOnWriteArrayList<>();

    @Override
    public KafkaCommitHandler create(KafkaConnectorIncomingConfiguration configuration, Vertx vertx,
            KafkaConsumer<?, ?> consumer, BiConsumer<Throwable, Boolean> reportFailure) {
        String clientId = String.valueOf(consumer.configuration().get(ConsumerConfig.CLIENT_ID_CONFIG));
        OutOfOrderCommitHandler handler = new OutOfOrderCommitHandler(configuration.getChannel(), clientId, consumer,
                vertx, config.offsets(), metrics, dispatcher::isDraining, dispatcher::hasFreeSlot, dispatcher::awaitIdle);
        handlers.add(handler);
        return handler;
    }

    /** Every handler created so far, one per consumer. */
    public List<OutOfOrderCommitHandler> handlers() {
        return List.copyOf(handlers);
    }
}
