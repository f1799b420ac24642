package dev.jobweaver.api.testing;

import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.local.LocalStack;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * The api-service tests' {@link LocalStack}: the same real Kafka (own JVM) and PostgreSQL, started once per test
 * JVM, with {@code kafka().stop()/start()} for outage tests.
 *
 * <p>Why not {@code LocalStack.shared()}: on this loaded machine its {@code TopicProvisioner} describes the new
 * topics before the broker's metadata shows them and fails with {@code UnknownTopicOrPartitionException} instead of
 * waiting (seen on every attempt at load 10+). This starts the same parts and creates the same topics, but keeps
 * retrying the describe until every partition has a leader. Switch back once deploy/local retries it.
 */
public final class ApiStack {

    private static LocalStack stack;

    private ApiStack() {
    }

    /** The stack, started on first use and stopped when the JVM exits. */
    public static synchronized LocalStack get() {
        if (stack == null) {
            LocalStack started = new LocalStack(LocalStack.Settings.ephemeral());
            Runtime.getRuntime().addShutdownHook(new Thread(started::close, "api-test-stack-stop"));
            Thread postgres = Thread.ofVirtual().name("postgres-start").start(() -> started.postgres().start());
            started.kafka().start();
            ensureTopics(started.kafkaBootstrapServers());
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

    private static void ensureTopics(String bootstrap) {
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
            Set<String> names = Topics.ALL.stream().map(Topics.TopicSpec::name).collect(Collectors.toSet());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            while (true) {
                try {
                    Map<String, TopicDescription> descriptions =
                            admin.describeTopics(names).allTopicNames().get(30, TimeUnit.SECONDS);
                    if (descriptions.values().stream().allMatch(d -> d.partitions().stream()
                            .allMatch(p -> p.leader() != null && !p.leader().isEmpty()))) {
                        return;
                    }
                } catch (ExecutionException e) {
                    // not visible yet; the broker's metadata catches up asynchronously
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("topics not visible on " + bootstrap + " after 90 s");
                }
                Thread.sleep(200);
            }
        } catch (InterruptedException | TimeoutException e) {
            throw new IllegalStateException("could not create the topics on " + bootstrap, e);
        }
    }
}
