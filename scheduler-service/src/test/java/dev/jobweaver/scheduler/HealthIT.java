package dev.jobweaver.scheduler;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import dev.jobweaver.scheduler.testing.ExecutableDatabase;
import dev.jobweaver.scheduler.testing.Readiness;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
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
        try (Connection connection = ExecutableDatabase.connect();
             Statement query = connection.createStatement();
             ResultSet rows = query.executeQuery("SELECT max(version::int), bool_and(success)"
                     + " FROM flyway_schema_history WHERE version IS NOT NULL")) {
            assertThat(rows.next()).isTrue();
            assertThat(rows.getInt(1)).as("jobweaver.schema.version").isEqualTo(11);
            assertThat(rows.getBoolean(2)).isTrue();
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
