package dev.jobweaver.api.job.health;

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
 * Ready only while the broker answers and {@code job-created}, where every submission goes, exists with a leader.
 *
 * <p>Bounded (2 s): Quarkus' own Kafka check waits for the admin client's default API timeout (60 s) when the broker is
 * gone, longer than any probe. It asks again at every probe, so readiness comes back as soon as Kafka does.
 */
@Readiness
@ApplicationScoped
public class KafkaReadinessCheck implements HealthCheck {

    private static final int TIMEOUT_MS = 2000;

    private final Admin admin;

    public KafkaReadinessCheck(@Identifier("default-kafka-broker") Map<String, Object> kafkaConfig) {
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
        var response = HealthCheckResponse.named("Kafka broker and " + Topics.JOB_CREATED);
        try {
            TopicDescription topic = admin.describeTopics(List.of(Topics.JOB_CREATED),
                            new DescribeTopicsOptions().timeoutMs(TIMEOUT_MS))
                    .allTopicNames().get(TIMEOUT_MS + 500L, TimeUnit.MILLISECONDS).get(Topics.JOB_CREATED);
            boolean led = topic.partitions().stream().allMatch(p -> p.leader() != null && !p.leader().isEmpty());
            return response.status(led).withData("partitions", topic.partitions().size()).build();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return response.down().withData("reason", "interrupted").build();
        } catch (Exception e) {
            String reason = e.getCause() != null ? e.getCause().toString() : e.toString();
            return response.down().withData("reason", reason).build();
        }
    }

    @PreDestroy
    void close() {
        admin.close(java.time.Duration.ofSeconds(2));
    }
}
