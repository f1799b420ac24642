package dev.jobweaver.worker;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.worker.testing.WorkerDatabase;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The executable starts: Flyway migrates its schema as it starts, and it reports itself started and live. Readiness and
 * metrics: {@code OffsetCommitHealthCheckIT}.
 */
@QuarkusIntegrationTest
@JobWeaverTest(database = WorkerDatabase.NAME)
class WorkerStartIT {

    @Test
    void itIsStartedAndLive() {
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            given().get("/q/health/started").then().statusCode(200).body("status", equalTo("UP"));
            given().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"));
        });
    }

    @Test
    void flywayMigratedTheSchemaToTheVersionTheBuildNeeds() throws SQLException {
        try (Connection connection = WorkerDatabase.connect();
             Statement query = connection.createStatement();
             ResultSet rows = query.executeQuery("SELECT max(version::int), bool_and(success)"
                     + " FROM flyway_schema_history WHERE version IS NOT NULL")) {
            assertThat(rows.next()).isTrue();
            assertThat(rows.getInt(1)).isEqualTo(4); // jobweaver.schema.version
            assertThat(rows.getBoolean(2)).isTrue();
        }
    }
}
