package dev.jobweaver.worker.offsets;

import dev.jobweaver.testing.JobWeaverTest;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.worker.testing.PrometheusScrape;
import dev.jobweaver.worker.testing.WorkerKafka;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Readiness covers the database, Kafka and the commit strategy; the worker's gauges are exported. */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_worker")
class OffsetCommitHealthCheckTest {

    @Test
    void readinessReportsDatabaseKafkaAndTheOffsetsOfEveryOwnedPartition() {
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            JsonNode health = WorkerKafka.JSON.readTree(given().get("/q/health/ready").then().extract().asString());
            assertThat(health.path("status").asText()).isEqualTo("UP");
            List<String> names = new ArrayList<>();
            health.path("checks").forEach(c -> names.add(c.path("name").asText()));
            assertThat(names).anyMatch(n -> n.contains("PostgreSQL"));
            assertThat(names).anyMatch(n -> n.toLowerCase().contains("kafka"));
            JsonNode offsets = null;
            for (JsonNode check : health.path("checks")) {
                if (check.path("name").asText().equals("worker-offset-commits")) {
                    offsets = check;
                }
            }
            assertThat(offsets).isNotNull();
            // The worker's consumers own the three run-job partitions between them.
            assertThat(offsets.path("data").has("run-job-0")).isTrue();
            assertThat(offsets.path("data").has("run-job-1")).isTrue();
            assertThat(offsets.path("data").has("run-job-2")).isTrue();
        });
    }

    @Test
    void theWorkersGaugesAreExportedFromTheStart() {
        assertThat(PrometheusScrape.sum("jobweaver_worker_in_flight_max")).isEqualTo(12.0); // %test max-in-flight
    }
}
