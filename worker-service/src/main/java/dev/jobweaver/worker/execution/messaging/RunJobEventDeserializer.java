package dev.jobweaver.worker.execution.messaging;

import dev.jobweaver.common.event.RunJobEvent;
import io.quarkus.kafka.client.serialization.ObjectMapperDeserializer;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * JSON to {@link RunJobEvent}. A record that does not parse makes it throw; with
 * {@code fail-on-deserialization-failure=false} the connector then delivers the record with a null payload, which the
 * worker logs, counts and skips.
 */
@RegisterForReflection // instantiated by the Kafka client from its class name
public class RunJobEventDeserializer extends ObjectMapperDeserializer<RunJobEvent> {

    public RunJobEventDeserializer() {
        super(RunJobEvent.class);
    }
}
