package dev.jobweaver.api.platform.http;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.Answers;
import dev.jobweaver.api.testing.NativeExecutable;
import io.restassured.path.json.JsonPath;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The native executable starts and serves what needs no credentials: health with PostgreSQL and Kafka in readiness,
 * Prometheus metrics, the OpenAPI document; and refuses the API without credentials.
 */
class StartupIT extends NativeExecutable {

    @Test
    void readinessChecksPostgresqlAndKafka() {
        JsonPath ready = given().get("/q/health/ready").then().statusCode(200).extract().jsonPath();

        List<String> checks = ready.getList("checks.name", String.class);
        assertThat(String.join(" ", checks).toLowerCase()).contains("postgresql").contains("outbox relay");
        assertThat(ready.getList("checks.status", String.class)).containsOnly("UP");
        assertThat(ready.getMap("checks.find { it.name.startsWith('outbox relay') }.data"))
                .hasEntrySatisfying("kafka", kafka -> assertThat(kafka.toString()).startsWith("reachable"));
        given().get("/q/health/live").then().statusCode(200);
        given().get("/q/health/started").then().statusCode(200);
    }

    @Test
    void metricsArePrometheusText() {
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();

        assertThat(metrics).contains("jobweaver_jobs_submitted_total", "jobweaver_outbox_backlog_jobs",
                "jobweaver_status_events_total");
    }

    @Test
    void openApiDescribesTheApi() {
        String openapi = given().accept("application/json").get("/q/openapi").then().statusCode(200).extract()
                .asString();

        assertThat(openapi).contains("/api/jobs", "/api/jobs/{id}", "/api/schedules", "/api/workflows",
                "JobRequest", "ErrorResponse", "Retry-After");
    }

    @Test
    void theApiRefusesACallerWithoutCredentials() {
        Answers.assertRefused("no credentials", given().get("/api/jobs"), 401, "API.UNAUTHENTICATED", "");
    }
}
