package dev.jobweaver.scheduler;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import dev.jobweaver.scheduler.testing.ExecutableDatabase;
import dev.jobweaver.scheduler.testing.Readiness;
import dev.jobweaver.common.schema.SchemaVersion;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.testing.SchemaHistory;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import java.sql.Connection;
import java.sql.SQLException;
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
        Readiness.awaitDatabaseAndKafka();
    }

    @Test
    void flywayMigratedTheSchemaToTheVersionTheServiceRequires() throws SQLException {
        try (Connection connection = ExecutableDatabase.connect()) {
            SchemaVersion.Verdict verdict = SchemaHistory.verdict(connection, "jobweaver_scheduler");
            assertThat(verdict.status()).as(verdict.message()).isEqualTo(SchemaVersion.Status.CURRENT);
        }
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
