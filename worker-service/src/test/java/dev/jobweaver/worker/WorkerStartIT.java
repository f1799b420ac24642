package dev.jobweaver.worker;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import dev.jobweaver.common.schema.SchemaVersion;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.testing.SchemaHistory;
import dev.jobweaver.worker.testing.WorkerDatabase;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import java.sql.Connection;
import java.sql.SQLException;
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
        try (Connection connection = WorkerDatabase.connect()) {
            SchemaVersion.Verdict verdict = SchemaHistory.verdict(connection, WorkerDatabase.NAME);
            assertThat(verdict.status()).as(verdict.message()).isEqualTo(SchemaVersion.Status.CURRENT);
        }
    }
}
