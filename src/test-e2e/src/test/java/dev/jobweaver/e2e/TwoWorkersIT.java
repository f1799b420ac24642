package dev.jobweaver.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.e2e.support.E2ePlatform;
import dev.jobweaver.e2e.support.Executions;
import dev.jobweaver.e2e.support.HealthyPlatform;
import dev.jobweaver.e2e.support.JobWeaverClient;
import dev.jobweaver.e2e.support.Jobs;
import dev.jobweaver.local.Platform;
import dev.jobweaver.local.Platform.Service;
import dev.jobweaver.local.ServiceProcess;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.junit.jupiter.api.Test;

/** Scenario 8: with two worker processes the run-job partitions are shared, and every job completes exactly once. */
@HealthyPlatform
class TwoWorkersIT {

    /** The workers' consumer group on run-job (worker-service's application.properties). */
    private static final String WORKER_GROUP = "jobweaver-workers";

    @Test
    void twoWorkersShareThePartitionsAndRunEachJobOnce() throws Exception {
        Platform platform = E2ePlatform.get();
        ServiceProcess second = platform.addInstance(Service.WORKER);
        try {
            JobWeaverClient api = E2ePlatform.api();
            // Wait until the group has rebalanced onto both processes before measuring who ran what: a fixed warm-up
            // once let all 300 jobs finish on the first worker before the second had a partition.
            awaitInstanceWithPartitions(second.spec().name(), Duration.ofSeconds(60));
            api.awaitAll(api.submitMany(Jobs.noop(), 10, 2), JobWeaverClient::terminal, Duration.ofSeconds(60));
            String job = Jobs.job("[{\"action\":\"SLEEP\",\"durationMs\":20}]", 0);
            List<UUID> ids = api.submitMany(job, 300, 8);

            Map<UUID, JsonNode> jobs = api.awaitAll(ids, JobWeaverClient::terminal, Duration.ofMinutes(3));

            assertThat(jobs.values()).allSatisfy(j -> assertThat(j.path("status").asText()).isEqualTo("COMPLETED"));
            assertThat(Executions.perJob(ids).values()).containsOnly(1);
            Map<String, Integer> byWorker = executionsByWorker(ids);
            assertThat(byWorker).as("executions per worker instance").hasSize(2);
            System.out.printf("[measure] scenario 8: 300 jobs over two workers, each once: %s%n", byWorker);
        } finally {
            platform.removeInstance(Service.WORKER);
        }
    }

    /**
     * Waits until a member of the workers' group whose static instance id names {@code instance} holds a run-job
     * partition. Members are consumers, not processes: one worker runs a consumer per partition it may hold, so
     * counting members would be satisfied by the first worker alone.
     */
    private static void awaitInstanceWithPartitions(String instance, Duration timeout) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                E2ePlatform.get().stack().kafkaBootstrapServers()))) {
            long deadline = System.nanoTime() + timeout.toNanos();
            long assigned = 0;
            while (System.nanoTime() < deadline) {
                ConsumerGroupDescription group = admin.describeConsumerGroups(List.of(WORKER_GROUP))
                        .describedGroups().get(WORKER_GROUP).get();
                assigned = group.members().stream()
                        .filter(m -> m.groupInstanceId().filter(id -> id.endsWith("-" + instance)).isPresent())
                        .filter(m -> !m.assignment().topicPartitions().isEmpty()).count();
                if (assigned > 0) {
                    return;
                }
                E2ePlatform.awaitQuietly(250);
            }
            assertThat(assigned).as("consumers of " + instance + " in " + WORKER_GROUP + " holding partitions")
                    .isPositive();
        }
    }

    private static Map<String, Integer> executionsByWorker(List<UUID> ids) throws Exception {
        try (Connection c = E2ePlatform.database("jobweaver_worker");
             PreparedStatement q = c.prepareStatement("SELECT worker_id, count(*) FROM execution_attempts "
                     + "WHERE job_id = ANY (?) GROUP BY worker_id")) {
            q.setArray(1, c.createArrayOf("uuid", ids.toArray()));
            Map<String, Integer> counts = new HashMap<>();
            try (ResultSet rs = q.executeQuery()) {
                while (rs.next()) {
                    counts.put(rs.getString(1), rs.getInt(2));
                }
            }
            return counts;
        }
    }
}
