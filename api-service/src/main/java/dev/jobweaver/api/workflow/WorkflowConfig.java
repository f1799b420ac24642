package dev.jobweaver.api.workflow;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Typed configuration of workflows ({@code jobweaver.api.workflows.*}). */
@ConfigMapping(prefix = "jobweaver.api.workflows")
public interface WorkflowConfig {

    /**
     * The largest run input, in bytes of its JSON: it is copied into the payload of every node's job, so its size is
     * multiplied by the number of nodes in the database and on Kafka.
     */
    @WithDefault("16384")
    int maxInputBytes();

    /**
     * How often the republisher looks for runs whose start or cancel Kafka has not acknowledged (a crash or an outage
     * between the commit and the acknowledgement): the interval of its rounds in the outbox's republish loop.
     */
    @WithDefault("5s")
    Duration republishInterval();

    /** Most runs one republisher round publishes; a full round is followed by the next at once. */
    @WithDefault("100")
    int republishBatchSize();
}
