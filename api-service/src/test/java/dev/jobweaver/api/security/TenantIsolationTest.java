package dev.jobweaver.api.security;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.DeadLetters;
import dev.jobweaver.api.testing.SecuredProfile;
import dev.jobweaver.api.testing.TestTokens;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Two tenants on the secured API: what tenant A's operator makes, tenant B's operator (a role high enough for every
 * action) never sees: each read or action on it is the resource's own 404, B's lists leave it out, and naming A in a
 * body or a filter is 403 {@code API.TENANT_FORBIDDEN}. A reaches its own objects, and an admin every tenant's.
 */
@QuarkusTest
@TestProfile(SecuredProfile.class)
@JobWeaverTest(database = "jobweaver_api")
class TenantIsolationTest {

    private static final String JOB = """
            {"jobType":"SIMULATION","payload":{"steps":[{"action":"LOG","message":"hi"}]}%s}""";
    private static final String SCHEDULE = """
            {"name":"nightly","cron":"0 2 * * *"%s,"job":{"jobType":"SIMULATION",\
            "payload":{"steps":[{"action":"LOG","message":"hi"}]}}}""";
    private static final String WORKFLOW = """
            {"name":"etl"%s,"nodes":[{"id":"a","job":{"jobType":"SIMULATION",\
            "payload":{"steps":[{"action":"LOG","message":"a"}]}}}]}""";
    private static final String HOOK = """
            {"name":"deploy","job":{"jobType":"SIMULATION","payload":{"steps":[{"action":"LOG","message":"go"}]}%s}}""";

    private final String tenantA = "iso-a-" + UUID.randomUUID().toString().substring(0, 8);
    private final String tenantB = "iso-b-" + UUID.randomUUID().toString().substring(0, 8);
    private final String operatorA = TestTokens.token("operator-a", tenantA, Roles.OPERATOR);
    private final String operatorB = TestTokens.token("operator-b", tenantB, Roles.OPERATOR);
    private final String viewerB = TestTokens.token("viewer-b", tenantB, Roles.VIEWER);
    private final String admin = TestTokens.token("admin", "default", Roles.ADMIN);

    @Test
    void aJobOfAnotherTenantIsNotFound() {
        String jobId = created(send(operatorA, "POST", "/api/jobs", JOB.formatted("")), 202, "jobId");
        assertThat(send(operatorA, "GET", "/api/jobs/" + jobId, null).jsonPath().getString("tenant"))
                .isEqualTo(tenantA);

        assertNotFound(send(operatorB, "GET", "/api/jobs/" + jobId, null), "API.JOB_NOT_FOUND");
        assertNotFound(send(operatorB, "GET", "/api/jobs/" + jobId + "/attempts", null), "API.JOB_NOT_FOUND");
        assertNotFound(send(operatorB, "POST", "/api/jobs/" + jobId + "/cancel", null), "API.JOB_NOT_FOUND");
        assertNotFound(send(operatorB, "DELETE", "/api/jobs/" + jobId, null), "API.JOB_NOT_FOUND");

        assertThat(send(operatorA, "GET", "/api/jobs/" + jobId + "/attempts", null).statusCode()).isEqualTo(200);
        assertThat(send(admin, "GET", "/api/jobs/" + jobId, null).statusCode()).isEqualTo(200);
    }

    @Test
    void jobListsShowTheCallersTenantOnly() {
        String jobA = created(send(operatorA, "POST", "/api/jobs", JOB.formatted("")), 202, "jobId");
        String jobB = created(send(operatorB, "POST", "/api/jobs", JOB.formatted("")), 202, "jobId");

        Response listB = send(viewerB, "GET", "/api/jobs?size=100", null);
        assertThat(listB.statusCode()).isEqualTo(200);
        assertThat(listB.jsonPath().getList("jobs.tenant", String.class)).isNotEmpty().containsOnly(tenantB);
        assertThat(listB.jsonPath().getList("jobs.id", String.class)).contains(jobB).doesNotContain(jobA);
        assertThat(send(admin, "GET", "/api/jobs?tenant=" + tenantA, null).jsonPath()
                .getList("jobs.id", String.class)).containsExactly(jobA);

        assertTenantForbidden(send(viewerB, "GET", "/api/jobs?tenant=" + tenantA, null));
    }

    @Test
    void aSubmissionTakesTheCallersTenantAndMayNameNoOther() {
        assertTenantForbidden(send(operatorB, "POST", "/api/jobs", JOB.formatted(",\"tenant\":\"" + tenantA + "\"")));
        String own = created(send(operatorB, "POST", "/api/jobs", JOB.formatted("")), 202, "jobId");
        assertThat(send(operatorB, "GET", "/api/jobs/" + own, null).jsonPath().getString("tenant")).isEqualTo(tenantB);
        String named = created(send(admin, "POST", "/api/jobs", JOB.formatted(",\"tenant\":\"" + tenantA + "\"")),
                202, "jobId");
        assertThat(send(operatorA, "GET", "/api/jobs/" + named, null).jsonPath().getString("tenant"))
                .isEqualTo(tenantA);
    }

    @Test
    void aScheduleOfAnotherTenantIsNotFound() {
        Response made = send(operatorA, "POST", "/api/schedules", SCHEDULE.formatted(""));
        String id = created(made, 201, "id");
        assertThat(made.jsonPath().getString("tenant")).isEqualTo(tenantA);

        String path = "/api/schedules/" + id;
        assertNotFound(send(operatorB, "GET", path, null), "API.SCHEDULE_NOT_FOUND");
        assertNotFound(send(operatorB, "PUT", path, SCHEDULE.formatted("")), "API.SCHEDULE_NOT_FOUND");
        assertNotFound(send(operatorB, "POST", path + "/pause", null), "API.SCHEDULE_NOT_FOUND");
        assertNotFound(send(operatorB, "POST", path + "/resume", null), "API.SCHEDULE_NOT_FOUND");
        assertNotFound(send(operatorB, "POST", path + "/trigger", null), "API.SCHEDULE_NOT_FOUND");
        assertNotFound(send(operatorB, "DELETE", path, null), "API.SCHEDULE_NOT_FOUND");
        assertThat(listed(operatorB, "/api/schedules", "schedules.id")).doesNotContain(id);
        assertTenantForbidden(send(operatorB, "GET", "/api/schedules?tenant=" + tenantA, null));
        assertTenantForbidden(send(operatorB, "POST", "/api/schedules",
                SCHEDULE.formatted(",\"tenant\":\"" + tenantA + "\"")));

        assertThat(send(operatorA, "GET", path, null).statusCode()).isEqualTo(200);
        assertThat(listed(operatorA, "/api/schedules", "schedules.id")).containsExactly(id);
        // a replacement naming no tenant keeps the schedule's, even an admin's of another tenant
        Response replaced = send(admin, "PUT", path, SCHEDULE.formatted(""));
        assertThat(replaced.statusCode()).as(replaced.asString()).isEqualTo(200);
        assertThat(replaced.jsonPath().getString("tenant")).isEqualTo(tenantA);
        assertThat(send(operatorA, "POST", path + "/pause", null).statusCode()).isEqualTo(200);
        assertThat(send(operatorA, "DELETE", path, null).statusCode()).isEqualTo(204);
    }

    @Test
    void aWorkflowAndItsRunsOfAnotherTenantAreNotFound() {
        Response made = send(operatorA, "POST", "/api/workflows", WORKFLOW.formatted(""));
        String id = created(made, 201, "id");
        assertThat(made.jsonPath().getString("tenant")).isEqualTo(tenantA);
        String runId = created(send(operatorA, "POST", "/api/workflows/" + id + "/runs", "{}"), 202, "runId");

        String path = "/api/workflows/" + id;
        assertNotFound(send(operatorB, "GET", path, null), "API.WORKFLOW_NOT_FOUND");
        assertNotFound(send(operatorB, "PUT", path, WORKFLOW.formatted("")), "API.WORKFLOW_NOT_FOUND");
        assertNotFound(send(operatorB, "POST", path + "/runs", "{}"), "API.WORKFLOW_NOT_FOUND");
        assertNotFound(send(operatorB, "GET", path + "/runs", null), "API.WORKFLOW_NOT_FOUND");
        assertNotFound(send(operatorB, "GET", "/api/workflow-runs/" + runId, null), "API.WORKFLOW_RUN_NOT_FOUND");
        assertNotFound(send(operatorB, "POST", "/api/workflow-runs/" + runId + "/cancel", null),
                "API.WORKFLOW_RUN_NOT_FOUND");
        assertNotFound(send(operatorB, "POST", "/api/workflow-runs/" + runId + "/retry", null),
                "API.WORKFLOW_RUN_NOT_FOUND");
        assertNotFound(send(operatorB, "DELETE", path, null), "API.WORKFLOW_NOT_FOUND");
        assertThat(listed(operatorB, "/api/workflows", "workflows.id")).doesNotContain(id);
        assertTenantForbidden(send(operatorB, "POST", "/api/workflows",
                WORKFLOW.formatted(",\"tenant\":\"" + tenantA + "\"")));

        assertThat(send(operatorA, "GET", path, null).statusCode()).isEqualTo(200);
        assertThat(send(operatorA, "GET", path + "/runs", null).jsonPath().getList("runs.runId", String.class))
                .containsExactly(runId);
        assertThat(send(operatorA, "GET", "/api/workflow-runs/" + runId, null).statusCode()).isEqualTo(200);
        // A reaches its own run: a retry of a run that has not ended is the run's own 409, not a 404
        assertThat(send(operatorA, "POST", "/api/workflow-runs/" + runId + "/retry", null).jsonPath()
                .getString("errorCode")).isEqualTo("API.WORKFLOW_RUN_NOT_RETRYABLE");
        assertThat(listed(operatorA, "/api/workflows", "workflows.id")).containsExactly(id);
        Response replaced = send(admin, "PUT", path, WORKFLOW.formatted(""));
        assertThat(replaced.statusCode()).as(replaced.asString()).isEqualTo(200);
        assertThat(replaced.jsonPath().getString("tenant")).isEqualTo(tenantA);
    }

    @Test
    void aHookOfAnotherTenantIsNotFound() {
        Response made = send(operatorA, "POST", "/api/hooks", HOOK.formatted(""));
        String id = created(made, 201, "id");
        assertThat(made.jsonPath().getString("tenant")).isEqualTo(tenantA);

        assertNotFound(send(operatorB, "GET", "/api/hooks/" + id, null), "API.HOOK_NOT_FOUND");
        assertNotFound(send(operatorB, "DELETE", "/api/hooks/" + id, null), "API.HOOK_NOT_FOUND");
        assertThat(listed(operatorB, "/api/hooks", "hooks.id")).doesNotContain(id);
        assertTenantForbidden(send(operatorB, "POST", "/api/hooks",
                HOOK.formatted(",\"tenant\":\"" + tenantA + "\"")));

        assertThat(listed(operatorA, "/api/hooks", "hooks.id")).containsExactly(id);
        assertThat(send(operatorA, "DELETE", "/api/hooks/" + id, null).statusCode()).isEqualTo(204);
    }

    @Test
    void aSubscriptionOfAnotherTenantIsNotFound() {
        String jobId = created(send(operatorA, "POST", "/api/jobs", JOB.formatted("")), 202, "jobId");
        String body = "{\"jobId\":\"" + jobId + "\",\"events\":[\"COMPLETED\"],"
                + "\"url\":\"https://hooks.example.com/jobweaver\"}";
        String id = created(send(operatorA, "POST", "/api/subscriptions", body), 201, "id");

        assertNotFound(send(operatorB, "POST", "/api/subscriptions", body), "API.JOB_NOT_FOUND");
        assertNotFound(send(operatorB, "GET", "/api/subscriptions/" + id, null), "API.SUBSCRIPTION_NOT_FOUND");
        assertNotFound(send(operatorB, "GET", "/api/subscriptions/" + id + "/deliveries", null),
                "API.SUBSCRIPTION_NOT_FOUND");
        assertNotFound(send(operatorB, "DELETE", "/api/subscriptions/" + id, null), "API.SUBSCRIPTION_NOT_FOUND");
        // a job type's subscription would hear every tenant's jobs
        assertTenantForbidden(send(operatorB, "POST", "/api/subscriptions",
                "{\"jobType\":\"HTTP\",\"events\":[\"COMPLETED\"],\"url\":\"https://hooks.example.com/jobweaver\"}"));

        assertThat(send(operatorA, "GET", "/api/subscriptions/" + id, null).statusCode()).isEqualTo(200);
        assertThat(send(operatorA, "DELETE", "/api/subscriptions/" + id, null).statusCode()).isEqualTo(204);
    }

    @Test
    void aDeadLetterOfAnotherTenantIsNotFoundAndNotRequeued() throws Exception {
        Response job = send(operatorA, "POST", "/api/jobs", JOB.formatted(""));
        String jobId = created(job, 202, "jobId");
        DeadLetters.store(jobId, tenantA, "SIMULATION", Instant.now(), job.jsonPath().getString("traceId"));

        String path = "/api/dead-letters/" + jobId;
        assertNotFound(send(operatorB, "GET", path, null), "API.DEAD_LETTER_NOT_FOUND");
        assertNotFound(send(operatorB, "POST", path + "/requeue", null), "API.DEAD_LETTER_NOT_FOUND");
        assertNotFound(send(operatorB, "POST", path + "/discard", "{\"reason\":\"not mine\"}"),
                "API.DEAD_LETTER_NOT_FOUND");
        assertThat(listed(operatorB, "/api/dead-letters", "deadLetters.jobId")).doesNotContain(jobId);
        assertTenantForbidden(send(operatorB, "GET", "/api/dead-letters?tenant=" + tenantA, null));
        assertTenantForbidden(send(operatorB, "POST", "/api/dead-letters/requeue",
                "{\"tenant\":\"" + tenantA + "\"}"));
        Response bulk = send(operatorB, "POST", "/api/dead-letters/requeue", "{}");
        assertThat(bulk.statusCode()).as(bulk.asString()).isEqualTo(202);
        assertThat(bulk.jsonPath().getList("jobIds", String.class)).doesNotContain(jobId);
        assertThat(DeadLetters.row(jobId).get("state")).isEqualTo("OPEN");

        assertThat(listed(operatorA, "/api/dead-letters", "deadLetters.jobId")).containsExactly(jobId);
        Response discarded = send(operatorA, "POST", path + "/discard", "{\"reason\":\"mine\"}");
        assertThat(discarded.statusCode()).as(discarded.asString()).isEqualTo(200);
    }

    @Test
    void statisticsCountTheCallersTenantUnlessAdmin() {
        Response own = send(viewerB, "GET", "/api/stats/overview", null);
        assertThat(own.statusCode()).as(own.asString()).isEqualTo(200);
        assertThat(own.jsonPath().getString("tenant")).isEqualTo(tenantB);
        assertTenantForbidden(send(viewerB, "GET", "/api/stats/overview?tenant=" + tenantA, null));
        Response all = send(admin, "GET", "/api/stats/overview", null);
        assertThat(all.statusCode()).isEqualTo(200);
        assertThat(all.jsonPath().getString("tenant")).isNull();
    }

    private static Response send(String token, String method, String path, String body) {
        var request = given().header("Authorization", TestTokens.bearer(token));
        if (body != null) {
            request = request.contentType(ContentType.JSON).body(body);
        }
        return request.when().request(method, path);
    }

    private static String created(Response response, int status, String idField) {
        assertThat(response.statusCode()).as(response.asString()).isEqualTo(status);
        return response.jsonPath().getString(idField);
    }

    private static List<String> listed(String token, String path, String field) {
        Response response = send(token, "GET", path + "?size=100", null);
        assertThat(response.statusCode()).as(response.asString()).isEqualTo(200);
        return response.jsonPath().getList(field, String.class);
    }

    private static void assertNotFound(Response response, String code) {
        assertThat(response.statusCode()).as(response.asString()).isEqualTo(404);
        assertThat(response.jsonPath().getString("errorCode")).isEqualTo(code);
    }

    private static void assertTenantForbidden(Response response) {
        assertThat(response.statusCode()).as(response.asString()).isEqualTo(403);
        assertThat(response.jsonPath().getString("errorCode")).isEqualTo("API.TENANT_FORBIDDEN");
    }
}
