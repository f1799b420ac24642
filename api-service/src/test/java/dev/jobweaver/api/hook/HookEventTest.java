package dev.jobweaver.api.hook;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.Answers;
import dev.jobweaver.api.testing.Database;
import dev.jobweaver.api.testing.Events;
import dev.jobweaver.api.testing.Hooks;
import dev.jobweaver.api.testing.Workflows;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A hook whose target is an event type: each signed call publishes an event of that type in the hook's tenant, the
 * body its data, which starts the tenant's workflows listening to it; the same signed request repeated publishes the
 * same event and starts nothing new.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class HookEventTest {

    @Test
    void aSignedCallPublishesAnEventThatStartsTheListeningWorkflowsOnce() throws Exception {
        String type = Events.freshType("deploy.requested");
        String tenant = Workflows.createOne("{\"name\":\"probe\",\"nodes\":[{\"id\":\"extract\",\"job\":"
                + Workflows.JOB + "}]}").getString("tenant");
        String workflowId = Events.listening(tenant, type);
        JsonPath created = Answers.expect(Hooks.create("{\"name\":\"deploys\",\"event\":\"" + type + "\"}"), 201,
                "an event's hook");
        String hookId = created.getString("id");
        assertThat(created.getString("event")).isEqualTo(type);
        assertThat(given().get("/api/hooks/" + hookId).then().statusCode(200).extract().jsonPath().getString("event"))
                .isEqualTo(type);

        byte[] body = "{\"ref\":\"refs/heads/main\"}".getBytes(StandardCharsets.UTF_8);
        String timestamp = Hooks.now();
        Map<String, String> signed = Map.of(HookSignature.TIMESTAMP_HEADER, timestamp,
                HookSignature.SIGNATURE_HEADER, HookSignature.sign(created.getString("secret"), timestamp, body));
        Response first = Hooks.call(hookId, body, signed);
        Response again = Hooks.call(hookId, body, signed);

        JsonPath answer = Answers.expect(first, 202, "a signed call");
        assertThat(answer.getString("hookId")).isEqualTo(hookId);
        String eventId = answer.getString("eventId");
        List<String> runs = answer.getList("runs");
        assertThat(runs).hasSize(1);
        assertThat(Workflows.run(runs.getFirst()).getString("workflowId")).isEqualTo(workflowId);
        assertThat(Database.firstString("SELECT data::text FROM application_events WHERE id = ?", eventId))
                .isEqualTo("{\"ref\": \"refs/heads/main\"}");
        JsonPath repeated = Answers.expect(again, 202, "the same signed call again");
        assertThat(repeated.getString("eventId")).isEqualTo(eventId);
        assertThat(repeated.getList("runs")).isEqualTo(runs);
        assertThat(Events.runsOf(workflowId)).isEqualTo(1);

        JsonPath another = Answers.expect(Hooks.callSigned(hookId, created.getString("secret"), "{\"ref\":\"v2\"}"),
                202, "another call");
        assertThat(another.getString("eventId")).isNotEqualTo(eventId);
        assertThat(Events.runsOf(workflowId)).isEqualTo(2);
    }
}
