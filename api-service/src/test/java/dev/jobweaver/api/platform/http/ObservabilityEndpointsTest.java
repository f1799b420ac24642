package dev.jobweaver.api.platform.http;

import dev.jobweaver.testing.JobWeaverTest;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.Jobs;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Health (with PostgreSQL and Kafka in readiness), Prometheus metrics and the OpenAPI document. */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class ObservabilityEndpointsTest {

    @Test
    void readinessChecksTheDatabaseAndShowsTheRelay() {
        JsonPath ready = given().get("/q/health/ready").then().statusCode(200).extract().jsonPath();

        List<String> checks = ready.getList("checks.name", String.class);
        assertThat(String.join(" ", checks).toLowerCase()).contains("outbox relay").contains("database");
        assertThat(ready.getList("checks.status", String.class)).containsOnly("UP");
        assertThat(ready.getMap("checks.find { it.name.startsWith('outbox relay') }.data"))
                .containsKeys("accepting", "backlogJobs", "backlogBytes", "backlogOldestAgeSeconds")
                .containsEntry("accepting", true)
                .hasEntrySatisfying("kafka", kafka -> assertThat(kafka.toString()).startsWith("reachable"));
        given().get("/q/health/live").then().statusCode(200);
        given().get("/q/health/started").then().log().ifValidationFails().statusCode(200);
    }

    @Test
    void metricsCountSubmissionsAndValidationFailures() {
        assertThat(Jobs.submit(Jobs.VALID).statusCode()).isEqualTo(202);
        assertThat(Jobs.submit("{}").statusCode()).isEqualTo(400);

        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();

        assertThat(metrics).contains("jobweaver_jobs_submitted_total", "jobweaver_submissions_backlogged_total",
                "jobweaver_validation_failures_total{errorCode=\"API.INVALID_JOB_REQUEST\"",
                "jobweaver_outbox_backlog_jobs", "jobweaver_outbox_backlog_bytes", "jobweaver_outbox_backlog_age_seconds",
                "jobweaver_outbox_relay_failures_total", "jobweaver_status_events_total",
                "jobweaver_quarantined_total{reason=\"unreadable\",topic=\"job-status\"}",
                "jobweaver_job_commands_total{command=\"cancel\"}", "jobweaver_job_commands_total{command=\"delete\"}");
        String submitted = metrics.lines().filter(l -> l.startsWith("jobweaver_jobs_submitted_total"))
                .findFirst().orElseThrow();
        assertThat(Double.parseDouble(submitted.substring(submitted.lastIndexOf(' ') + 1))).isGreaterThanOrEqualTo(1);
    }

    @Test
    void openApiDescribesTheJobsEndpoints() {
        String openapi = given().accept("application/json").get("/q/openapi").then().statusCode(200).extract().asString();

        assertThat(openapi).contains("/api/jobs", "/api/jobs/{id}", "JobRequest", "ErrorResponse", "JobPage",
                "Retry-After").doesNotContain("RoutingContext");
    }

    @Test
    @SuppressWarnings("unchecked")
    void openApiDescribesEveryRecordBodyWithItsFields() {
        Map<String, Object> schemas = given().accept("application/json").get("/q/openapi").then().statusCode(200)
                .extract().jsonPath().getMap("components.schemas");

        Map<String, List<String>> fields = Map.of(
                "TenantLimitRequest", List.of("maxRunning"),
                "ApiKeyRequest", List.of("name", "roles", "expiresAt"),
                "NewSubscription", List.of("jobId", "scheduleId", "workflowId", "jobType", "events", "url"),
                "NewHook", List.of("name", "workflowId", "job"));
        fields.forEach((body, names) -> {
            assertThat(schemas).as(body).containsKey(body);
            Map<String, Object> properties = (Map<String, Object>) ((Map<String, Object>) schemas.get(body))
                    .get("properties");
            assertThat(properties).as(body).containsKeys(names.toArray(String[]::new));
        });
    }

    @Test
    @SuppressWarnings("unchecked")
    void openApiListsTheRefusalsOfEveryApiKeyOperationBesideItsOwnResponses() {
        Map<String, Object> paths = given().accept("application/json").get("/q/openapi").then().statusCode(200)
                .extract().jsonPath().getMap("paths");
        Map<String, Object> keys = (Map<String, Object>) paths.get("/api/tenants/{tenant}/api-keys");
        Map<String, Object> key = (Map<String, Object>) paths.get("/api/tenants/{tenant}/api-keys/{id}");
        for (Object operation : List.of(keys.get("post"), keys.get("get"), key.get("delete"))) {
            Map<String, Object> responses = (Map<String, Object>) ((Map<String, Object>) operation).get("responses");
            assertThat(responses).containsKeys("400", "401", "403");
            assertThat(((Map<String, Object>) responses.get("403")).get("description"))
                    .isEqualTo("the caller is not an admin (API.FORBIDDEN)");
        }
        // the other secured operations get theirs from Quarkus, which adds 401 and 403 wherever @RolesAllowed is
        Map<String, Object> schedules = (Map<String, Object>) ((Map<String, Object>) paths.get("/api/schedules"))
                .get("get");
        assertThat((Map<String, Object>) schedules.get("responses")).containsKeys("200", "400", "401", "403");
    }
}
