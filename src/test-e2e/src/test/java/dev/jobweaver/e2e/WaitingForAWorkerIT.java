package dev.jobweaver.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.e2e.support.E2ePlatform;
import dev.jobweaver.e2e.support.HealthyPlatform;
import dev.jobweaver.e2e.support.JobWeaverClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * On the packaged platform: the standard worker announces its queue and types; a job of a type no live worker runs,
 * or of a queue none serves, is accepted and waits PENDING, saying what for, and never fails for it; it can be
 * cancelled while it waits.
 */
@HealthyPlatform
class WaitingForAWorkerIT {

    @Test
    void theStandardWorkerIsAQueuesLiveWorkerAndAJobNobodyRunsWaitsSayingForWhat() {
        JobWeaverClient api = E2ePlatform.api();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            JsonNode queues = api.get("/api/queues").body().path("queues");
            JsonNode standard = find(queues, "default");
            assertThat(standard).as("the default queue").isNotNull();
            List<String> types = new ArrayList<>();
            standard.path("workers").forEach(w -> w.path("types").forEach(t -> types.add(t.asText())));
            assertThat(types).contains("SIMULATION", "HTTP");
        });

        String queue = "reports-" + UUID.randomUUID().toString().substring(0, 8);
        UUID ownType = api.submitAccepted("{\"jobType\":\"report.monthly\",\"payload\":{\"month\":11}}");
        UUID ownQueue = api.submitAccepted("{\"jobType\":\"SIMULATION\",\"queue\":\"" + queue + "\","
                + "\"payload\":{\"steps\":[{\"action\":\"LOG\",\"message\":\"nobody serves this queue\"}]}}");

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(api.job(ownType).path("waitingFor").asText())
                    .isEqualTo("a worker for type report.monthly on queue default");
            assertThat(api.job(ownQueue).path("waitingFor").asText())
                    .isEqualTo("a worker for type SIMULATION on queue " + queue);
        });
        // well past a dispatch and a lease's first checks: still waiting, never run, never failed
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            for (UUID id : List.of(ownType, ownQueue)) {
                JsonNode job = api.job(id);
                assertThat(job.path("status").asText()).isEqualTo("PENDING");
                assertThat(job.path("attempts").asInt()).isZero();
            }
        });
        JsonNode depth = find(api.get("/api/queues").body().path("queues"), queue);
        assertThat(depth.path("pending").asLong()).isEqualTo(1);
        assertThat(depth.path("workers").size()).isZero();

        assertThat(api.cancel(ownType).status()).isEqualTo(202);
        JsonNode cancelled = api.awaitAll(List.of(ownType), JobWeaverClient::terminal, Duration.ofSeconds(30))
                .get(ownType);
        assertThat(cancelled.path("status").asText()).isEqualTo("CANCELLED");
        assertThat(cancelled.has("waitingFor")).as("only a PENDING job waits").isFalse();
    }

    private static JsonNode find(JsonNode queues, String name) {
        for (JsonNode queue : queues) {
            if (queue.path("name").asText().equals(name)) {
                return queue;
            }
        }
        return null;
    }
}
