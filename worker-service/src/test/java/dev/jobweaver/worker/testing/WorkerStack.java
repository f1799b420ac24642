package dev.jobweaver.worker.testing;

import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.local.LocalStack;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * The worker tests' real Kafka (own JVM) and PostgreSQL: deploy/local's {@link LocalStack} parts, started once per test
 * JVM, with a topic creation that waits for the broker.
 *
 * <p>Why not {@code LocalStack.shared()}: on this loaded machine its {@code TopicProvisioner} describes the topics it
 * just created before the broker's metadata has them, gets {@code UnknownTopicOrPartitionException} and gives up
 * (every attempt failed at high load). Here a failed describe is simply tried again until every partition has a leader.
 * Go back to {@code LocalStackResource} once deploy/local retries.
 */
public final class WorkerStack {

    private static LocalStack stack;

    private WorkerStack() {
    }

    /** The stack, started on first use and stopped when the JVM exits. */
    public static synchronized LocalStack get() {
        if (stack == null) {
            LocalStack started = new LocalStack(LocalStack.Settings.ephemeral());
            Runtime.getRuntime().addShutdownHook(new Thread(started::close, "worker-test-stack-stop"));
            Thread postgres = Thread.ofVirtual().name("postgres-start").start(() -> started.postgres().start());
            started.kafka().start();
            createTopics(started.kafkaBootstrapServers());
            try {
                postgres.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            stack = started;
        }
        return stack;
    }

    private static void createTopics(String bootstrap) {
        Set<String> names = Topics.ALL.stream().map(Topics.TopicSpec::name).collect(Collectors.toSet());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            for (Topics.TopicSpec spec : Topics.ALL) {
                NewTopic topic = new NewTopic(spec.name(), spec.partitions(), (short) 1);
                if (spec.compacted()) {
                    topic.configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
                }
                try {
                    admin.createTopics(List.of(topic)).all().get(60, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw new IllegalStateException("could not create " + spec.name(), e);
                    }
                }
            }
            while (true) {
                try {
                    boolean ready = admin.describeTopics(names).allTopicNames().get(30, TimeUnit.SECONDS).values().stream()
                            .allMatch(d -> d.partitions().stream().allMatch(p -> p.leader() != null && !p.leader().isEmpty()));
                    if (ready) {
                        return;
                    }
                } catch (ExecutionException e) {
                    // the broker's metadata has not caught up with the creation yet
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the topics have no leader on " + bootstrap + " after 120 s");
                }
                Thread.sleep(200);
            }
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw e instanceof IllegalStateException ise ? ise : new IllegalStateException("topics on " + bootstrap, e);
        }
    }
}
