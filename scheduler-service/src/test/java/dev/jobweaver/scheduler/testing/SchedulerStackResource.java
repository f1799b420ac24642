package dev.jobweaver.scheduler.testing;

import dev.jobweaver.local.LocalStack;
import dev.jobweaver.local.TopicProvisioner;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.HashMap;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * The real Kafka broker and PostgreSQL of deploy/local for the scheduler's tests: {@code LocalStackResource}, made
 * patient with topic creation.
 *
 * <p>Why not {@code LocalStackResource} itself: on a loaded machine (three engineers' builds on two cores), the
 * stack's topic provisioning sometimes sees {@code UnknownTopicOrPartition} right after creating the topics (their
 * metadata not yet propagated) and gives up, and {@code LocalStack.shared()} then leaves the started broker
 * unreachable for a retry. This resource starts one {@link LocalStack} per test JVM like {@code shared()} does,
 * and if only the topic step failed, provisions the topics again (idempotent) until they are visible. The stack
 * stops when the JVM exits. Use it with the init argument {@code database}.
 */
public class SchedulerStackResource implements QuarkusTestResourceLifecycleManager {

    /** The init argument naming the service's database. */
    public static final String DATABASE = "database";

    private static final Logger LOG = Logger.getLogger(SchedulerStackResource.class);
    private static final int TOPIC_ATTEMPTS = 10;
    private static LocalStack stack;

    private String database = "jobweaver_scheduler";

    @Override
    public void init(Map<String, String> initArgs) {
        database = initArgs.getOrDefault(DATABASE, database);
    }

    @Override
    public Map<String, String> start() {
        Map<String, String> config = new HashMap<>(stack().serviceConfig(database));
        config.put("quarkus.devservices.enabled", "false");
        return config;
    }

    @Override
    public void stop() {
        // The stack outlives each test class; its shutdown hook stops it with the JVM.
    }

    private static synchronized LocalStack stack() {
        if (stack == null) {
            LocalStack started = new LocalStack(LocalStack.Settings.ephemeral());
            Runtime.getRuntime().addShutdownHook(new Thread(started::close, "scheduler-test-stack-stop"));
            try {
                started.start();
            } catch (IllegalStateException e) {
                LOG.warnf("local stack: %s; provisioning the topics again", e.getMessage());
                provisionPatiently(started);
                started.postgres().start(); // idempotent: waits for the start already in flight
            }
            stack = started;
        }
        return stack;
    }

    private static void provisionPatiently(LocalStack started) {
        for (int attempt = 1; ; attempt++) {
            try {
                TopicProvisioner.ensureTopics(started.kafkaBootstrapServers(), Map.of());
                return;
            } catch (IllegalStateException e) {
                if (attempt == TOPIC_ATTEMPTS) {
                    throw e;
                }
                LOG.warnf("topic provisioning attempt %d failed: %s", attempt, e.getMessage());
                try {
                    Thread.sleep(1_000L * attempt);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }
}
