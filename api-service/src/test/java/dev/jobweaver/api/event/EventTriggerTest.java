package dev.jobweaver.api.event;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.testing.Answers;
import dev.jobweaver.api.testing.Database;
import dev.jobweaver.api.testing.Events;
import dev.jobweaver.api.testing.Workflows;
import dev.jobweaver.common.job.JobIds;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /api/events} starts one run of every live workflow of the event's tenant whose triggers name its type,
 * with the event as the run's input, and of no other workflow: not one of another type, not another tenant's, not a
 * deleted one. Each test publishes a type of its own, so no other test's workflow listens to it.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class EventTriggerTest {

    @Inject
    ObjectMapper mapper;

    @Test
    void anEventStartsOneRunOfEachListeningWorkflowOfItsTenantWithTheEventAsInput() throws Exception {
        String type = Events.freshType("order.created");
        String first = Events.listening("t-events-a", type);
        String second = Events.listening("t-events-a", Events.freshType("other"), type);
        String otherType = Events.listening("t-events-a", Events.freshType("order.paid"));
        String otherTenant = Events.listening("t-events-b", type);
        String deleted = Events.listening("t-events-a", type);
        given().delete("/api/workflows/" + deleted).then().statusCode(204);

        String id = "order-1-" + UUID.randomUUID();
        JsonPath answer = Answers.expect(Events.publish(Events.body(id, type, "{\"orderId\":1}", "t-events-a")), 202,
                "an event");

        assertThat(answer.getString("eventId")).isEqualTo(id);
        List<String> runs = answer.getList("runs");
        assertThat(runs).hasSize(2);
        // oldest listening workflow first
        assertThat(runs.stream().map(run -> Workflows.run(run).getString("workflowId")).toList())
                .containsExactly(first, second);
        assertThat(Events.runsOf(otherType)).isZero();
        assertThat(Events.runsOf(otherTenant)).as("another tenant's workflow").isZero();
        assertThat(Events.runsOf(deleted)).as("a deleted workflow").isZero();
        JsonNode input = mapper.readTree(given().get("/api/workflow-runs/" + runs.getFirst()).then().statusCode(200)
                .extract().body().asString()).path("input");
        assertThat(input).isEqualTo(mapper.readTree("{\"id\":\"" + id + "\",\"type\":\"" + type
                + "\",\"data\":{\"orderId\":1}}"));
    }

    @Test
    void eachRunsIdIsDerivedFromTheEventAndItsWorkflow() throws Exception {
        String type = Events.freshType("invoice.sent");
        String workflowId = Events.listening("t-events-a", type);

        String id = "invoice-" + UUID.randomUUID();
        JsonPath answer = Answers.expect(Events.publish(Events.body(id, type, "{}", "t-events-a")), 202, "an event");

        UUID runId = UUID.fromString(answer.getList("runs", String.class).getFirst());
        Instant received = Instant.parse(Database.firstString(
                "SELECT to_char(received_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"')"
                        + " FROM application_events WHERE tenant = 't-events-a' AND id = ?", id));
        assertThat(runId).isEqualTo(JobIds.forEvent("t-events-a", id, UUID.fromString(workflowId),
                received));
    }

    @Test
    void anEventNoWorkflowListensToStartsNothingAndIsAnsweredWithNoRuns() {
        JsonPath answer = Answers.expect(Events.publish(Events.body(null, Events.freshType("nobody.listens"),
                null, null)), 202, "an event");

        assertThat(UUID.fromString(answer.getString("eventId"))).as("a UUID made for it").isNotNull();
        assertThat(answer.getList("runs")).isEmpty();
    }

    @Test
    void aWorkflowShowsItsTriggersAndAReplaceChangesWhatItHears() throws Exception {
        String type = Events.freshType("user.signed-up");
        String workflowId = Events.listening("t-events-a", type);
        assertThat(given().get("/api/workflows/" + workflowId).then().statusCode(200).extract().jsonPath()
                .getList("triggers.event")).containsExactly(type);

        Answers.expect(Answers.putJson("/api/workflows/" + workflowId, "{\"name\":\"on-event\",\"tenant\":"
                + "\"t-events-a\",\"nodes\":[{\"id\":\"extract\",\"job\":" + Workflows.JOB + "}]}"), 200, "a replace");
        assertThat(given().get("/api/workflows/" + workflowId).then().statusCode(200).extract().jsonPath()
                .getList("triggers")).isEmpty();

        JsonPath answer = Answers.expect(Events.publish(Events.body(null, type, null, "t-events-a")), 202, "");
        assertThat(answer.getList("runs")).as("its triggers are gone").isEmpty();
        assertThat(Events.runsOf(workflowId)).isZero();
    }
}
