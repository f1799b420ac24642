package dev.jobweaver.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.e2e.support.E2ePlatform;
import dev.jobweaver.e2e.support.HealthyPlatform;
import dev.jobweaver.e2e.support.JobWeaverClient;
import dev.jobweaver.e2e.support.Jobs;
import dev.jobweaver.e2e.support.NativeScenario;
import dev.jobweaver.e2e.support.TopicReader;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * Scenario 2: a job that always fails, with maxRetryCount 2, runs three times with growing delays, ends FAILED
 * and is dead-lettered exactly once. The backoff base is shrunk to {@link E2ePlatform#BACKOFF_BASE} by configuration.
 */
@HealthyPlatform
@NativeScenario
class RetriesIT {

    @Test
    void runsThreeTimesWithGrowingDelaysThenDeadLettersOnce() throws Exception {
        JobWeaverClient api = E2ePlatform.api();
        UUID id = api.submitAccepted(Jobs.failing("e2e says no", 2));

        JsonNode job = api.awaitAll(List.of(id), JobWeaverClient::terminal, Duration.ofSeconds(90)).get(id);

        assertThat(job.path("status").asText()).isEqualTo("FAILED");
        assertThat(job.path("attempts").asInt()).isEqualTo(3);
        assertThat(job.path("retryCount").asInt()).isEqualTo(2);
        assertThat(job.path("lastError").asText()).contains("e2e says no");

        List<Instant> starts = attemptStarts(id);
        assertThat(starts).hasSize(3);
        Duration firstGap = Duration.between(starts.get(0), starts.get(1));
        Duration secondGap = Duration.between(starts.get(1), starts.get(2));
        // base·2^0 before the first retry, base·2^1 before the second
        assertThat(firstGap).isGreaterThanOrEqualTo(E2ePlatform.BACKOFF_BASE);
        assertThat(secondGap).isGreaterThanOrEqualTo(E2ePlatform.BACKOFF_BASE.multipliedBy(2));
        assertThat(secondGap).isGreaterThan(firstGap);

        List<ConsumerRecord<String, String>> deadLetters =
                TopicReader.read(Topics.JOB_DEAD_LETTER, id.toString()::equals, Duration.ofSeconds(3));
        assertThat(deadLetters).hasSize(1);
        JsonNode event = new ObjectMapper().readTree(deadLetters.getFirst().value());
        assertThat(event.path("jobId").asText()).isEqualTo(id.toString());
        assertThat(event.path("finalRetryCount").asInt()).isEqualTo(2);
        assertThat(event.path("reason").asText()).contains("e2e says no");
        assertThat(event.path("traceId").asText()).isEqualTo(job.path("traceId").asText());
        System.out.printf("[measure] scenario 2: attempts at +0, +%d ms, +%d ms; one dead letter%n",
                firstGap.toMillis(), firstGap.plus(secondGap).toMillis());
    }

    private static List<Instant> attemptStarts(UUID id) throws Exception {
        try (Connection c = E2ePlatform.database("jobweaver_worker");
             PreparedStatement q = c.prepareStatement(
                     "SELECT started_at FROM execution_attempts WHERE job_id = ? ORDER BY attempt")) {
            q.setObject(1, id);
            List<Instant> starts = new ArrayList<>();
            try (ResultSet rs = q.executeQuery()) {
                while (rs.next()) {
                    starts.add(rs.getObject(1, Timestamp.class).toInstant());
                }
            }
            return starts;
        }
    }
}
