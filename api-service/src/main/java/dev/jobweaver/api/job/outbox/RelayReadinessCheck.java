package dev.jobweaver.api.job.outbox;

import dev.jobweaver.common.messaging.Topics;
import io.smallrye.common.annotation.Identifier;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * The outbox relay's state as readiness details: the unpublished backlog (jobs, bytes, the oldest one's age), whether
 * submissions are accepted, the events the relay is retrying, and whether the broker answers with {@code job-created}
 * led.
 *
 * <p>Always UP: the API accepts jobs while Kafka is down (they wait in the outbox), and when the backlog is over its
 * bound it answers 503 with Retry-After itself, which tells a client more than an endpoint taken out of its Service.
 * The database's own readiness check (the reactive client's) is what takes the API out when it cannot store jobs.
 *
 * <p>The broker question is bounded (2 s): the admin client's default API timeout (60 s) is longer than any probe.
 */
@Readiness
@ApplicationScoped
class RelayReadinessCheck implements HealthCheck {

    private static final int TIMEOUT_MS = 2000;

    private final Admin admin;
    private final OutboxBacklog backlog;
    private final OutboxRelay relay;

    RelayReadinessCheck(@Identifier("default-kafka-broker") Map<String, Object> kafkaConfig,
                        OutboxBacklog backlog, OutboxRelay relay) {
        this.backlog = backlog;
        this.relay = relay;
        Map<String, Object> config = new HashMap<>();
        kafkaConfig.forEach((key, value) -> {
            if (AdminClientConfig.configNames().contains(key)) {
                config.put(key, value);
            }
        });
        config.put(AdminClientConfig.CLIENT_ID_CONFIG, "jobweaver-api-readiness");
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, TIMEOUT_MS);
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, TIMEOUT_MS);
        config.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 1000);
        this.admin = Admin.create(config);
    }

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("outbox relay to " + Topics.JOB_CREATED).up()
                .withData("accepting", backlog.admits())
                .withData("backlogJobs", backlog.jobs())
                .withData("backlogBytes", backlog.bytes())
                .withData("backlogOldestAgeSeconds", backlog.oldestAge().toSeconds())
                .withData("relayRetrying", relay.retrying())
                .withData("kafka", kafka())
                .build();
    }

    /** "reachable, N partitions led", or why not. */
    private String kafka() {
        try {
            TopicDescription topic = admin.describeTopics(List.of(Topics.JOB_CREATED),
                            new DescribeTopicsOptions().timeoutMs(TIMEOUT_MS))
                    .allTopicNames().get(TIMEOUT_MS + 500L, TimeUnit.MILLISECONDS).get(Topics.JOB_CREATED);
            long led = topic.partitions().stream().filter(p -> p.leader() != null && !p.leader().isEmpty()).count();
            return led == topic.partitions().size() ? "reachable, " + led + " partitions led"
                    : "reachable, only " + led + " of " + topic.partitions().size() + " partitions led";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown: interrupted";
        } catch (Exception e) {
            return "unreachable: " + (e.getCause() != null ? e.getCause() : e);
        }
    }

    @PreDestroy
    void close() {
        admin.close(java.time.Duration.ofSeconds(2));
    }
}
