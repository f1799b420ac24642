package dev.jobweaver.api.hook;

import static dev.jobweaver.api.testing.Answers.assertRefused;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.Answers;
import dev.jobweaver.api.testing.Database;
import dev.jobweaver.api.testing.Endpoints;
import dev.jobweaver.api.testing.Hooks;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code /api/hooks}: create (201, Location, url, the secret once), read and list (never the secret), delete (204, then
 * 404, the secret forgotten); every bad input a 400 naming the field, unknown ids 404, never a 500.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class HookResourceTest {

    @Test
    void aJobHookIsCreatedWithItsUrlAndSecretOnceAndReadWithout() {
        Response created = Hooks.create("""
                {"name":"deploy","job":{"jobType":"SIMULATION","payload":{"steps":[{"action":"LOG","message":"go",\
                "extra":"dropped"}],"input":"replaced by each call"},"tenant":"acme","priority":"HIGH"}}""");

        assertThat(created.statusCode()).as(created.body().asString()).isEqualTo(201);
        JsonPath body = created.jsonPath();
        String id = body.getString("id");
        assertThat(created.header("Location")).isEqualTo("/api/hooks/" + id);
        assertThat(body.getString("url")).isEqualTo("/api/hooks/" + id);
        assertThat(body.getString("name")).isEqualTo("deploy");
        assertThat(body.getString("tenant")).as("the job's tenant").isEqualTo("acme");
        assertThat(body.getMap("job")).isEqualTo(Map.of("jobType", "SIMULATION",
                "payload", Map.of("steps", List.of(Map.of("action", "LOG", "message", "go"))),
                "maxRetryCount", 3, "priority", "HIGH", "tenant", "acme"));
        assertThat(Instant.parse(body.getString("createdAt"))).isBefore(Instant.now().plusSeconds(1));
        String secret = body.getString("secret");
        assertThat(secret).matches("jwhook_[A-Za-z0-9_-]{43}");
        assertThat(body.getMap("")).doesNotContainKey("workflowId");

        Response read = given().get("/api/hooks/" + id);

        assertThat(read.statusCode()).isEqualTo(200);
        assertThat(read.jsonPath().getString("id")).isEqualTo(id);
        assertThat(read.jsonPath().getString("url")).isEqualTo("/api/hooks/" + id);
        assertThat(read.jsonPath().getMap("job")).isEqualTo(body.getMap("job"));
        assertThat(read.jsonPath().getString("createdAt")).isEqualTo(body.getString("createdAt"));
        assertThat(read.jsonPath().getMap("")).doesNotContainKey("secret");
        assertThat(read.body().asString()).doesNotContain(secret.substring(7));
    }

    @Test
    void theListShowsLiveHooksNewestFirstWithoutSecrets() {
        String tenant = "t" + UUID.randomUUID().toString().substring(0, 8);
        String older = Hooks.create("{\"name\":\"older\",\"job\":{\"jobType\":\"SIMULATION\",\"payload\":{\"steps\":"
                + "[{\"action\":\"LOG\",\"message\":\"a\"}]},\"tenant\":\"" + tenant + "\"}}").jsonPath().getString("id");
        String newer = Hooks.create("{\"name\":\"newer\",\"job\":{\"jobType\":\"SIMULATION\",\"payload\":{\"steps\":"
                + "[{\"action\":\"LOG\",\"message\":\"b\"}]},\"tenant\":\"" + tenant + "\"}}").jsonPath().getString("id");
        String gone = Hooks.create("{\"name\":\"gone\",\"job\":{\"jobType\":\"SIMULATION\",\"payload\":{\"steps\":"
                + "[{\"action\":\"LOG\",\"message\":\"c\"}]},\"tenant\":\"" + tenant + "\"}}").jsonPath().getString("id");
        given().delete("/api/hooks/" + gone).then().statusCode(204);

        Response page = given().queryParam("tenant", tenant).get("/api/hooks");

        assertThat(page.statusCode()).as(page.body().asString()).isEqualTo(200);
        assertThat(page.jsonPath().getList("hooks.id")).containsExactly(newer, older);
        assertThat(page.jsonPath().getList("hooks.secret")).containsOnlyNulls();
        assertThat(page.jsonPath().getLong("totalElements")).isEqualTo(2);
        assertThat(page.jsonPath().getInt("totalPages")).isEqualTo(1);
        assertThat(given().queryParam("tenant", tenant).queryParam("size", "1").queryParam("page", "1")
                .get("/api/hooks").jsonPath().getList("hooks.id")).containsExactly(older);
    }

    @Test
    void aDeletedHookIsGoneWithItsSecret() throws Exception {
        Hooks.Created hook = Hooks.createJobHook("to delete");

        given().delete("/api/hooks/" + hook.id()).then().statusCode(204);

        Response read = given().get("/api/hooks/" + hook.id());
        assertThat(read.statusCode()).isEqualTo(404);
        assertThat(read.jsonPath().getString("errorCode")).isEqualTo("API.HOOK_NOT_FOUND");
        assertThat(given().delete("/api/hooks/" + hook.id()).statusCode()).isEqualTo(404);
        try (Connection connection = Database.connect();
             PreparedStatement statement = connection.prepareStatement(
                     "SELECT secret, deleted_at FROM hooks WHERE id = ?::uuid")) {
            statement.setString(1, hook.id());
            try (ResultSet row = statement.executeQuery()) {
                assertThat(row.next()).isTrue();
                assertThat(row.getString("secret")).isNull();
                assertThat(row.getTimestamp("deleted_at")).isNotNull();
            }
        }
    }

    @Test
    void anUnknownOrMalformedIdIs404Or400() {
        Endpoints every = new Endpoints().get("/api/hooks/{id}").delete("/api/hooks/{id}");
        String unknown = UUID.randomUUID().toString();
        every.refuse(unknown, 404, "API.HOOK_NOT_FOUND", "no hook with id " + unknown);
        every.refuse("42", 400, "API.INVALID_PARAMETER", "path parameter id must be a UUID");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            no name                  | {"job":{"jobType":"SIMULATION","payload":{"steps":[{"action":"LOG","message":"a"}]}}}                                      | API.INVALID_HOOK_REQUEST | name is required
            blank name               | {"name":" ","job":{"jobType":"SIMULATION","payload":{"steps":[{"action":"LOG","message":"a"}]}}}                           | API.INVALID_HOOK_REQUEST | name is required
            name a number            | {"name":7,"job":{"jobType":"SIMULATION","payload":{"steps":[{"action":"LOG","message":"a"}]}}}                             | API.MALFORMED_JSON       | name must be a string, got an integer
            no target                | {"name":"x"}                                                                                                               | API.INVALID_HOOK_REQUEST | exactly one of job, workflowId and event is required, got none
            both targets             | {"name":"x","workflowId":"3fa85f64-5717-4562-b3fc-2c963f66afa6","job":{"jobType":"SIMULATION","payload":{"steps":[{"action":"LOG","message":"a"}]}}} | API.INVALID_HOOK_REQUEST | exactly one of job, workflowId and event is required, got job and workflowId
            event and workflowId     | {"name":"x","event":"order.created","workflowId":"3fa85f64-5717-4562-b3fc-2c963f66afa6"}                                   | API.INVALID_HOOK_REQUEST | exactly one of job, workflowId and event is required, got workflowId and event
            event malformed          | {"name":"x","event":"9 lives"}                                                                                             | API.INVALID_HOOK_REQUEST | event must be an event type
            workflowId not a UUID    | {"name":"x","workflowId":"etl"}                                                                                            | API.INVALID_HOOK_REQUEST | workflowId must be a UUID
            unknown workflow         | {"name":"x","workflowId":"3fa85f64-5717-4562-b3fc-2c963f66afa6"}                                                           | API.INVALID_HOOK_REQUEST | workflowId 3fa85f64-5717-4562-b3fc-2c963f66afa6 names no workflow
            job not an object        | {"name":"x","job":"run"}                                                                                                   | API.MALFORMED_JSON       | job must be an object
            job without type         | {"name":"x","job":{"payload":{"steps":[{"action":"LOG","message":"a"}]}}}                                                  | API.INVALID_HOOK_REQUEST | job.jobType is required
            job unknown action       | {"name":"x","job":{"jobType":"SIMULATION","payload":{"steps":[{"action":"DANCE"}]}}}                                       | API.INVALID_HOOK_REQUEST | job.payload.steps[0]
            job negative duration    | {"name":"x","job":{"jobType":"SIMULATION","payload":{"steps":[{"action":"SLEEP","durationMs":-1}]}}}                       | API.INVALID_HOOK_REQUEST | job.payload.steps[0].durationMs
            job empty steps          | {"name":"x","job":{"jobType":"SIMULATION","payload":{"steps":[]}}}                                                         | API.INVALID_HOOK_REQUEST | job.payload.steps
            job retries too many     | {"name":"x","job":{"jobType":"SIMULATION","payload":{"steps":[{"action":"LOG","message":"a"}]},"maxRetryCount":11}}       | API.INVALID_HOOK_REQUEST | job.maxRetryCount must be between 0 and 10
            job wrong type           | {"name":"x","job":{"jobType":"SIMULATION","payload":{"steps":[{"action":"SLEEP","durationMs":"5"}]}}}                      | API.MALFORMED_JSON       | job.payload.steps[0].durationMs
            job runAt                | {"name":"x","job":{"jobType":"SIMULATION","payload":{"steps":[{"action":"LOG","message":"a"}]},"runAt":"2030-01-01T00:00:00Z"}} | API.INVALID_HOOK_REQUEST | job.runAt is not allowed in a hook
            job HTTP without url     | {"name":"x","job":{"jobType":"HTTP","payload":{"method":"GET"}}}                                                           | API.INVALID_HOOK_REQUEST | job.payload.url
            job bad tenant           | {"name":"x","job":{"jobType":"SIMULATION","payload":{"steps":[{"action":"LOG","message":"a"}]},"tenant":"ACME"}}          | API.INVALID_HOOK_REQUEST | job.tenant
            not JSON                 | {name                                                                                                                      | API.MALFORMED_JSON       | request body is not valid JSON
            trailing data            | {"name":"x","workflowId":"3fa85f64-5717-4562-b3fc-2c963f66afa6"} x                                                         | API.MALFORMED_JSON       | request body is not valid JSON
            duplicate key            | {"name":"x","name":"y"}                                                                                                    | API.MALFORMED_JSON       | Duplicate field 'name'
            an array                 | []                                                                                                                         | API.MALFORMED_JSON       | request body must be a JSON object, got an array
            """)
    void aBadRequestIs400NamingTheField(String name, String body, String errorCode, String message) {
        assertRefused(name, Hooks.create(body), 400, errorCode, message);
    }

    @Test
    void aNameTooLongIs400() {
        Response response = Hooks.create("{\"name\":\"" + "n".repeat(201) + "\",\"job\":" + Hooks.JOB + "}");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.jsonPath().getString("message")).contains("name must be at most 200 characters, got 201");
    }

    @Test
    void anEmptyBodyIs400AndABodyOverTheLimit413() {
        Response empty = Hooks.create("");
        assertThat(empty.statusCode()).isEqualTo(400);
        assertThat(empty.jsonPath().getString("errorCode")).isEqualTo("API.MALFORMED_JSON");

        Answers.assertBodyOverTheLimitAndNotJsonRefused("/api/hooks", "{\"name\":\"x\",\"job\":" + Hooks.JOB + "}");
    }
}
