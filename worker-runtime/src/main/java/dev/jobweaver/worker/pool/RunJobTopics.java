package dev.jobweaver.worker.pool;

import dev.jobweaver.common.messaging.Topics;
import io.smallrye.config.ConfigSourceInterceptor;
import io.smallrye.config.ConfigSourceInterceptorContext;
import io.smallrye.config.ConfigValue;
import io.smallrye.config.Priorities;
import jakarta.annotation.Priority;
import java.util.Arrays;
import java.util.List;

/**
 * Subscribes the {@code run-job-in} channel to the run topics of the queues this worker serves
 * ({@code jobweaver.worker.queues}): {@code run-job} for the default queue, {@code run-job.<queue>} for any other
 * ({@link Topics#runJob}). A worker of the default queue alone keeps the channel's own {@code topic}; any other set of
 * queues gives the channel a {@code topics} list instead (the connector takes one or the other), so the queues are
 * configured once and the subscription follows them.
 *
 * <p>Registered as a service ({@code META-INF/services}); it sees every configuration lookup and answers the two
 * names of the channel's subscription, passing every other one on.
 */
@Priority(Priorities.APPLICATION + 100)
public class RunJobTopics implements ConfigSourceInterceptor {

    static final String QUEUES = "jobweaver.worker.queues";
    static final String TOPIC = "mp.messaging.incoming.run-job-in.topic";
    static final String TOPICS = "mp.messaging.incoming.run-job-in.topics";

    @Override
    public ConfigValue getValue(ConfigSourceInterceptorContext context, String name) {
        if (!TOPIC.equals(name) && !TOPICS.equals(name)) {
            return context.proceed(name);
        }
        List<String> queues = queues(context.proceed(QUEUES));
        if (queues.isEmpty() || queues.equals(List.of("default"))) {
            return context.proceed(name);
        }
        if (TOPIC.equals(name)) {
            return null;
        }
        return ConfigValue.builder().withName(TOPICS).withValue(String.join(",", topics(queues))).build();
    }

    /** The run topics of {@code queues}, in their order. */
    static List<String> topics(List<String> queues) {
        return queues.stream().map(Topics::runJob).distinct().toList();
    }

    private static List<String> queues(ConfigValue value) {
        if (value == null || value.getValue() == null || value.getValue().isBlank()) {
            return List.of();
        }
        return Arrays.stream(value.getValue().split(",")).map(String::strip).filter(q -> !q.isEmpty()).toList();
    }
}
