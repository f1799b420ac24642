package dev.jobweaver.scheduler;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The native executable starts against real Kafka and PostgreSQL (migrating its schema as it starts), reports itself
 * started, live and ready, with readiness naming the database and every Kafka channel, and serves its metrics.
 */
@QuarkusIntegrationTest
@JobWeaverTest(database = "jobweaver_scheduler")
class HealthIT {

    @Test
    void readinessNamesThePostgresClientAndTheKafkaChannels() {
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().get("/q/health/ready")
                .then().statusCode(200)
                .body("status", equalTo("UP"))
                .body(containsString("Reactive PostgreSQL"))
                .body(containsString("Reactive Messaging"))
                .body(containsString("job-created-in"))
                .body(containsString("job-completed-in"))
                .body(containsString("schedules-in"))
                .body(containsString("workflow-runs-in"))
                .body(containsString("tenant-limits-in"))
                .body(containsString("scheduler-events-out"))
                .body(containsString("quarantine-out")));
    }

    @Test
    void theServiceIsStartedAndLive() {
        given().get("/q/health/started").then().statusCode(200).body("status", equalTo("UP"));
        given().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"));
    }

    @Test
    void metricsAreScrapedInPrometheusFormat() {
        given().get("/q/metrics").then().statusCode(200)
                .body(containsString("jobweaver_quarantined_total{"))
                .body(containsString("jobweaver_jobs_pending"))
                .body(containsString("jobweaver_workflow_runs_total{"));
    }
}
