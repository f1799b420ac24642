package dev.jobweaver.worker.pool;

import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.JobControlRules;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.worker.WorkerConfig;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.common.annotation.Identifier;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;
import org.jboss.logging.Logger;

/**
 * Creates the run topics of this worker's queues other than the default ({@code run-job.<queue>}) that do not exist
 * yet, before the worker subscribes to them and announces itself: a queue exists once a worker serves it, and the
 * scheduler publishes to a queue's topic only while one of its workers lives. {@code run-job} itself is created with
 * the platform's other topics (the launcher, the Kubernetes topic Job).
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>A queue whose name breaks the rule ({@link JobControlRules#QUEUE}) stops the start, naming it.</li>
 *   <li>A topic another worker created meanwhile is taken as it is; one that cannot be created (the broker refuses,
 *       an ACL) stops the start with the broker's reason, rather than a worker that would wait on nothing.</li>
 * </ul>
 *
 * <h2>Threads</h2>
 * On the start-up thread, before the messaging connectors start (an earlier observer priority): a blocking call of at
 * most {@link #TIMEOUT_SECONDS} seconds, only when the worker serves a queue other than the default.
 */
@ApplicationScoped
public class QueueTopics {

    private static final Logger LOG = Logger.getLogger(QueueTopics.class);
    static final int TIMEOUT_SECONDS = 30;

    @Inject WorkerConfig config;
    @Inject @Identifier("default-kafka-broker") Map<String, Object> kafka;

    void create(@Observes @Priority(1) StartupEvent start) {
        List<String> topics = topicsToEnsure(config.queues());
        if (topics.isEmpty()) {
            return;
        }
        Map<String, Object> admin = new HashMap<>();
        kafka.forEach((key, value) -> {
            if (AdminClientConfig.configNames().contains(key)) {
                admin.put(key, value);
            }
        });
        try (AdminClient client = AdminClient.create(admin)) {
            Set<String> existing = client.listTopics().names().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            List<NewTopic> missing = new ArrayList<>();
            for (String topic : topics) {
                if (!existing.contains(topic)) {
                    missing.add(new NewTopic(topic, Optional.of(config.queuePartitions()), Optional.empty()));
                }
            }
            for (NewTopic topic : missing) {
                try {
                    client.createTopics(List.of(topic)).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                    LOG.infof("created %s with %d partitions for queue %s", topic.name(), config.queuePartitions(),
                            topic.name().substring(Topics.RUN_JOB_QUEUE_PREFIX.length()));
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw new IllegalStateException("could not create " + topic.name() + " for this worker's"
                                + " queue: " + e.getCause().getMessage(), e.getCause());
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating the run topics of " + topics, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("could not list the topics to create the run topics of " + topics + ": "
                    + e.getMessage(), e);
        }
    }

    /** The run topics of {@code queues} other than the default's; IllegalStateException naming a malformed queue. */
    static List<String> topicsToEnsure(List<String> queues) {
        List<String> topics = new ArrayList<>();
        for (String queue : queues) {
            if (!JobControlRules.QUEUE.matcher(queue).matches()) {
                throw new IllegalStateException("jobweaver.worker.queues: '" + queue + "' is not a queue's name, "
                        + JobControlRules.QUEUE.pattern());
            }
            if (!queue.equals(JobControl.DEFAULT_QUEUE)) {
                topics.add(Topics.runJob(queue));
            }
        }
        return topics;
    }
}
